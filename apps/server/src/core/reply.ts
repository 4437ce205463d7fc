import { errorMessages, ErrorCode, type Locale } from '@coffer/contract';

export function ok<T>(data: T, locale: Locale = 'zh-CN') {
  return { code: ErrorCode.OK, message: errorMessages[locale][ErrorCode.OK], data };
}
