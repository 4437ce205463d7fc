import crypto from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';

/**
 * Authenticator secrets are stored encrypted (AES-256-GCM, the user id as associated data, so
 * a ciphertext copied to another user's row does not open): a copy of the database alone does
 * not give anyone the codes. The key is TWO_FACTOR_KEY (64 hex characters), else
 * DATA_DIR/two-factor-key, generated on first start (32 random bytes, file 0600). Several
 * API hosts on one database must share it: set TWO_FACTOR_KEY (a mounted secret) on each.
 */
export const KEY_FILE_NAME = 'two-factor-key';
const PREFIX = 'v1';

export function loadTwoFactorKey(config: Pick<Config, 'TWO_FACTOR_KEY' | 'dataDir'>): Buffer {
  if (config.TWO_FACTOR_KEY) return Buffer.from(config.TWO_FACTOR_KEY, 'hex');
  const path = join(config.dataDir, KEY_FILE_NAME);
  if (existsSync(path)) {
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
    if (key.length !== 32) throw new Error(`${path} must hold 64 hex characters`);
    return key;
  }
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const key = crypto.randomBytes(32);
  writeFileSync(path, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

/** The key of each app's database (tests run several apps, each with its own DATA_DIR, in one process). */
const keys = new WeakMap<Database, Buffer>();

export function registerTwoFactorKey(database: Database, key: Buffer): void {
  keys.set(database, key);
}

function keyFor(database: Database): Buffer {
  const key = keys.get(database);
  if (!key) throw new Error('two-factor key not registered for this database');
  return key;
}

export function sealSecret(database: Database, userId: number, secret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyFor(database), iv);
  cipher.setAAD(Buffer.from(`user_totp:${userId}`));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [PREFIX, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join(':');
}

/** Throws when the key is not the one the secret was sealed with. */
export function openSecret(database: Database, userId: number, stored: string): string {
  const [prefix, iv, tag, sealed] = stored.split(':');
  if (prefix !== PREFIX || !iv || !tag || !sealed) throw new Error('unknown two-factor secret format');
  const decipher = crypto.createDecipheriv('aes-256-gcm', keyFor(database), Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(`user_totp:${userId}`));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}
