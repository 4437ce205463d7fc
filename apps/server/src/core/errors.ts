import { ErrorCode, type ErrorCodeValue, type Locale } from '@coffer/contract';

/** A detail said in each language (e.g. a time left), where a field name would not do. */
export type LocalizedDetail = Readonly<Record<Locale, string>>;

/**
 * A business outcome that is not success. It travels as HTTP 200 with the code in the
 * body (docs/product.md §5.3); `detail` is appended to the localized message, e.g. a field name.
 */
export class BizError extends Error {
  constructor(
    readonly bizCode: ErrorCodeValue,
    readonly detail?: string | LocalizedDetail,
    readonly httpStatus = 200,
  ) {
    super(`biz ${bizCode}${detail ? `: ${typeof detail === 'string' ? detail : detail['en-US']}` : ''}`);
  }
}

export const notFound = () => new BizError(ErrorCode.NOT_FOUND);
export const invalid = (field: string) => new BizError(ErrorCode.INVALID_PARAMS, field);

export function isBizError(e: unknown): e is BizError {
  return e instanceof BizError;
}
