import { errorMessages, pickLocale, type ErrorCodeValue, type Locale } from '@coffer/contract';
import type { FastifyRequest } from 'fastify';

export function requestLocale(request: FastifyRequest): Locale {
  return pickLocale(request.headers['accept-language']);
}

/** The localized message for a code, with an optional detail such as a field name. */
export function messageFor(code: ErrorCodeValue, locale: Locale, detail?: string | Readonly<Record<Locale, string>>): string {
  const base = errorMessages[locale][code];
  if (!detail) return base;
  const said = typeof detail === 'string' ? detail : detail[locale];
  return locale === 'zh-CN' ? `${base}：${said}` : `${base}: ${said}`;
}
