/**
 * A refusal from the API: an envelope whose code is not 0 (a business outcome answered with HTTP
 * 200, or a fault's envelope with its HTTP status), or an answer that is no envelope at all (code
 * -1). Kept apart from the clients so code that only inspects errors pulls in no transport.
 */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** The envelope's data (null for most refusals; some carry what the refusal concerns). */
    readonly data: unknown = null,
    /** The HTTP status it came with (200 for a business refusal, 0 when unknown). */
    readonly status = 0,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Code of an answer that was not an envelope (a proxy's HTML page, a cut connection). */
export const NOT_AN_ENVELOPE = -1;

export function isApiError(error: unknown, code?: number): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

/** The server's message (already in the asked language), or `fallback` for anything else. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}
