import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { PushPayload } from '@coffer/contract';
import webpush from 'web-push';
import type { Config } from '../../config.ts';

/**
 * Web Push (docs/decisions/054): the server's VAPID key pair signs each push (the push service
 * knows the sender), the payload is encrypted to the browser's keys (aes128gcm), so the push
 * service never reads it. The pair lives in DATA_DIR/vapid-keys (0600), generated on first
 * start like the other DATA_DIR secrets; hosts sharing a database must share the file.
 */
export const VAPID_FILE_NAME = 'vapid-keys';
/** How long a push service keeps a push for an offline browser. */
const PUSH_TTL_SECONDS = 24 * 3600;
/** A push service that does not answer within this is given up on (the notice stays). */
const PUSH_TIMEOUT_MS = 10_000;

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export function loadVapidKeys(config: Pick<Config, 'dataDir'>): VapidKeys {
  const path = join(config.dataDir, VAPID_FILE_NAME);
  if (!existsSync(path)) {
    mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(path, `${JSON.stringify(webpush.generateVAPIDKeys())}\n`, { mode: 0o600, flag: 'wx' });
    } catch (e) {
      // another process of this DATA_DIR wrote it first: use theirs
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  const keys = JSON.parse(readFileSync(path, 'utf8')) as Partial<VapidKeys>;
  if (typeof keys.publicKey !== 'string' || typeof keys.privateKey !== 'string') throw new Error(`${path} must hold a VAPID key pair`);
  return { publicKey: keys.publicKey, privateKey: keys.privateKey };
}

/** The VAPID subject: a contact for the push service, from MAIL_FROM ("Coffer <a@b>" -> mailto:a@b). */
export function vapidSubject(mailFrom: string): string {
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `mailto:${address}`;
}

/**
 * Whether the server may post to this endpoint: https to a named, non-local host, unless
 * PUSH_LOCAL_ENDPOINTS is on (tests). Push services are public (FCM, Mozilla, Apple, Microsoft).
 */
export function endpointAllowed(endpoint: string, allowLocal: boolean): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (allowLocal) return url.protocol === 'https:' || url.protocol === 'http:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol !== 'https:' || isIP(host) !== 0) return false;
  return host.includes('.') && !/(^|\.)(localhost|local|internal|localdomain)$/i.test(host);
}

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export type PushOutcome = 'sent' | 'gone' | 'failed';

/**
 * Sends one encrypted push; 'gone' when the push service says the subscription has ended.
 * web-push builds the request (encryption, VAPID header); fetch posts it, so the one code path
 * also reaches a plain-http push service in tests (web-push's own sender speaks https only).
 */
export async function sendPush(keys: VapidKeys, subject: string, target: PushTarget, payload: PushPayload): Promise<PushOutcome> {
  try {
    const request = webpush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: PUSH_TTL_SECONDS,
        contentEncoding: 'aes128gcm',
      },
    );
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: request.body ? new Uint8Array(request.body) : null,
      redirect: 'error',
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status === 404 || response.status === 410) return 'gone';
    return response.ok ? 'sent' : 'failed';
  } catch {
    return 'failed';
  }
}
