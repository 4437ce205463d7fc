import { ApiError } from './api';

/** The server's message (already in the asked language) or a generic one. */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.message;
  return fallback;
}
