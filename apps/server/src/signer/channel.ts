import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The authenticated channel between the API and the signer (docs/decisions/039-separate-signer.md):
 * HMAC-SHA256 with a shared 32-byte secret over the method, path, a timestamp, a one-time nonce
 * and the body; the answer carries a MAC over the request's nonce and its body, so a caller
 * can tell the real signer (which hands out the xpub deposits go to) from an impostor.
 */
export const MAC_HEADER = 'x-signer-mac';
export const TIMESTAMP_HEADER = 'x-signer-timestamp';
export const NONCE_HEADER = 'x-signer-nonce';
/** A request older or newer than this (milliseconds, either side of the signer's clock) is refused. */
export const MAC_WINDOW_MS = 30_000;
/** Nonces remembered at most (one per request inside the window): beyond it, requests are refused, not forgotten. */
export const MAX_REMEMBERED_NONCES = 200_000;

/** Reads the shared secret: 64 hex characters in a file nobody but its owner may read (0600). */
export function readSecretFile(path: string): Buffer {
  const mode = statSync(path).mode & 0o777;
  if (mode & 0o077) throw new Error(`signer secret file ${path} is readable by others (mode ${mode.toString(8)}): chmod 600 it`);
  const text = readFileSync(path, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/i.test(text)) throw new Error(`signer secret file ${path} must hold 64 hex characters (openssl rand -hex 32)`);
  return Buffer.from(text, 'hex');
}

/** Creates the secret file (0600, folder 0700) with 32 random bytes unless it exists; returns the secret. */
export function ensureSecretFile(path: string): Buffer {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(path, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readSecretFile(path);
}

export function requestMac(secret: Buffer, method: string, path: string, timestamp: string, nonce: string, body: string): string {
  return createHmac('sha256', secret).update(`${method}\n${path}\n${timestamp}\n${nonce}\n${body}`).digest('hex');
}

export function responseMac(secret: Buffer, nonce: string, status: number, body: string): string {
  return createHmac('sha256', secret).update(`response\n${nonce}\n${status}\n${body}`).digest('hex');
}

export function macEquals(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === 32 && y.length === 32 && timingSafeEqual(x, y);
}

/** Headers of a request from the API to the signer. */
export function authHeaders(secret: Buffer, method: string, path: string, body: string, now: number): Record<string, string> {
  const timestamp = String(now);
  const nonce = randomBytes(16).toString('hex');
  return {
    [TIMESTAMP_HEADER]: timestamp,
    [NONCE_HEADER]: nonce,
    [MAC_HEADER]: requestMac(secret, method, path, timestamp, nonce, body),
  };
}

export type ChannelRefusal = 'bad_mac' | 'stale' | 'replayed' | 'busy';

/**
 * The signer's side: checks a request's MAC, its timestamp against the signer's clock and its
 * nonce against those seen within the window (a captured request cannot be played again).
 */
export class RequestGuard {
  private readonly seen = new Map<string, number>();

  constructor(private readonly secret: Buffer) {}

  check(
    method: string,
    path: string,
    headers: Record<string, string | string[] | undefined>,
    body: string,
    now: number,
  ): ChannelRefusal | null {
    const timestamp = header(headers, TIMESTAMP_HEADER);
    const nonce = header(headers, NONCE_HEADER);
    const mac = header(headers, MAC_HEADER);
    if (!timestamp || !nonce || !mac || !/^\d{1,16}$/.test(timestamp) || !/^[0-9a-f]{32}$/.test(nonce)) return 'bad_mac';
    if (!macEquals(mac, requestMac(this.secret, method, path, timestamp, nonce, body))) return 'bad_mac';
    if (Math.abs(now - Number(timestamp)) > MAC_WINDOW_MS) return 'stale';
    this.prune(now);
    if (this.seen.has(nonce)) return 'replayed';
    if (this.seen.size >= MAX_REMEMBERED_NONCES) return 'busy';
    this.seen.set(nonce, now + 2 * MAC_WINDOW_MS);
    return null;
  }

  private prune(now: number): void {
    // Map iterates in insertion order, and expiries grow with it (up to clock steps): stop at the first live one.
    for (const [nonce, expires] of this.seen) {
      if (expires > now) break;
      this.seen.delete(nonce);
    }
  }
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? undefined : v;
}
