/** A record id from the URL (`?id=`, a path segment): a positive safe integer, or null. */
export function recordIdParam(value: string | null | undefined): number | null {
  if (!value || !/^[1-9]\d{0,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}
