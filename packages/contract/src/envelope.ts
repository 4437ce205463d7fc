import { z } from 'zod';
import type { ErrorCodeValue } from './errors.ts';

/** Every response body: `{ code, message, data }`; code 0 is success (DESIGN §5). */
export function envelope<T extends z.ZodTypeAny>(data: T) {
  return z.object({ code: z.number().int(), message: z.string(), data });
}

export interface Envelope<T> {
  code: ErrorCodeValue | number;
  message: string;
  data: T;
}

export const emptyData = z.null();
