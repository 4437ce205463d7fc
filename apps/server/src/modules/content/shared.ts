import type { Locale } from '@coffer/contract';
import type { FastifyRequest } from 'fastify';
import { isBizError } from '../../core/errors.ts';
import { requireSession, type SessionUser, tokenFromRequest } from '../../core/session.ts';
import type { Db } from '../../db/client.ts';

export const tags = ['content'];
export const adminTags = ['admin', 'content'];
export const signedIn = [{ token: [] }];

export const iso = (v: Date | string) => new Date(v).toISOString();
export const isoOrNull = (v: Date | string | null) => (v === null ? null : iso(v));

/** Which of a row's two text columns (…_zh, …_en) answers a request in `locale`. */
export const textColumn = (locale: Locale): 'zh' | 'en' => (locale === 'en-US' ? 'en' : 'zh');

/** `q` as a LIKE pattern that matches it literally anywhere (\ is the escape character). */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The signed-in user of a public path, or null: a missing, invalid, expired or revoked token
 * answers as signed out there, never 2001.
 */
export async function optionalUser(db: Db, request: FastifyRequest): Promise<SessionUser | null> {
  if (!tokenFromRequest(request)) return null;
  try {
    return await requireSession(db, request);
  } catch (e) {
    if (isBizError(e)) return null;
    throw e;
  }
}
