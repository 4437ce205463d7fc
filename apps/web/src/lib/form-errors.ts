import type { FormInstance } from 'antd-mobile/es/components/form';
import { isApiError } from '@coffer/api-client/api-error';

/**
 * Which form field each refusal code concerns. The request passes the codes as
 * `fieldCodes` (lib/api-client.ts), so those refusals are not popped up as well: a refusal
 * with a field is shown next to it, a toast is for what has none (decision 021).
 */
export type FieldErrors<Field extends string> = Readonly<Partial<Record<number, Field>>>;

export function fieldCodesOf(fields: FieldErrors<string>): number[] {
  return Object.keys(fields).map(Number);
}

/** Puts the server's message under the field `error` concerns; false when it has none. */
export function showFieldError<Field extends string>(form: FormInstance, error: unknown, fields: FieldErrors<Field>): boolean {
  if (!isApiError(error)) return false;
  const name = fields[error.code];
  if (!name) return false;
  form.setFields([{ name, errors: [error.message] }]);
  return true;
}

/** A refusal's field and the server's message, for forms kept in React state rather than an antd Form. */
export interface FieldError<Field extends string> {
  field: Field;
  message: string;
}

/** The field `error` concerns (with the server's message), or null when it has none. */
export function fieldErrorOf<Field extends string>(error: unknown, fields: FieldErrors<Field>): FieldError<Field> | null {
  if (!isApiError(error)) return null;
  const field = fields[error.code];
  return field ? { field, message: error.message } : null;
}
