/**
 * A reply whose code is not 0; the user has already been shown its message. Kept apart
 * from the HTTP client so code that only inspects errors does not pull axios in.
 */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isApiError(error: unknown, code?: number): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}
