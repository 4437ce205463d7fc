import { z } from 'zod';
import type { ErrorCodeValue } from './errors.ts';

/** Every response body: `{ code, message, data }`; code 0 is success (docs/product.md §5.3). */
export function envelope<T extends z.ZodTypeAny>(data: T) {
  return z.object({ code: z.number().int(), message: z.string(), data });
}

export interface Envelope<T> {
  code: ErrorCodeValue | number;
  message: string;
  data: T;
}

export const emptyData = z.null();

/** The failure shape of any endpoint: a non-zero code, a localized message, no data. */
export const failureEnvelope = envelope(z.null()).describe('code != 0: data is null, message says why (in the asked language)');

/**
 * Route response schema: success or failure, both HTTP 200 (docs/product.md §5.3), so the OpenAPI
 * document shows both shapes.
 */
export const apiResponse = <T extends z.ZodTypeAny>(data: T) => ({ 200: z.union([envelope(data), failureEnvelope]) });
