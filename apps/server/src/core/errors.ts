import { ErrorCode, type ErrorCodeValue } from '@coffer/contract';

/**
 * A business outcome that is not success. It travels as HTTP 200 with the code in the
 * body (DESIGN §5); `detail` is appended to the localized message, e.g. a field name.
 */
export class BizError extends Error {
  constructor(
    readonly bizCode: ErrorCodeValue,
    readonly detail?: string,
    readonly httpStatus = 200,
  ) {
    super(`biz ${bizCode}${detail ? `: ${detail}` : ''}`);
  }
}

export const notFound = () => new BizError(ErrorCode.NOT_FOUND);
export const invalid = (field: string) => new BizError(ErrorCode.INVALID_PARAMS, field);

export function isBizError(e: unknown): e is BizError {
  return e instanceof BizError;
}
