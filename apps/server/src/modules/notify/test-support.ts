import crypto from 'node:crypto';
import http from 'node:http';
import type { TestApp } from '../../test/harness.ts';

/** Mails captured for `to` whose raw text contains `needle` (subjects are encoded; bodies too). */
export const mailsTo = (t: TestApp, to: string) => t.mailbox.mails.filter((m) => m.to === to.toLowerCase());

export interface ReceivedPush {
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  path: string;
}

/**
 * A local push service: records every POST and answers `status()` (201, or 410 to say the
 * subscription ended). Stands in for FCM/Mozilla's endpoint as web-push posts to it.
 */
export async function startPushService(status: () => number = () => 201) {
  const received: ReceivedPush[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks), path: req.url ?? '' });
      res.writeHead(status()).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { origin: `http://127.0.0.1:${port}`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A browser's side of a push subscription: its P-256 key pair and auth secret. */
export function browserKeys() {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  return {
    ecdh,
    auth,
    json: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
  };
}

const hkdf = (salt: Buffer, ikm: Buffer, info: Buffer, length: number) => Buffer.from(crypto.hkdfSync('sha256', ikm, salt, info, length));

/**
 * Opens an aes128gcm Web Push body (RFC 8188 record, RFC 8291 keys) as the browser does: what
 * proves the server encrypted the payload to this subscription's keys.
 */
export function decryptPush(body: Buffer, browser: ReturnType<typeof browserKeys>): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = browser.ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.ecdh.getPublicKey(), serverPublic]);
  const ikm = hkdf(browser.auth, shared, keyInfo, 32);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // the last record ends with the delimiter 0x02, then zero padding
  const end = padded.lastIndexOf(2);
  return padded.subarray(0, end).toString('utf8');
}

/**
 * Checks the VAPID Authorization header ("vapid t=<JWT>, k=<public key>"): the JWT is signed
 * (ES256) by the key it names and is for the push service's origin. Answers k and the claims.
 */
export function verifyVapid(header: string | undefined): { k: string; claims: { aud: string; exp: number; sub: string } } {
  const m = /^vapid t=([^,]+),\s*k=(\S+)$/.exec(header ?? '');
  if (!m) throw new Error(`not a VAPID header: ${header}`);
  const [jwt, k] = [m[1]!, m[2]!];
  const [head, payload, signature] = jwt.split('.') as [string, string, string];
  const point = Buffer.from(k, 'base64url');
  const key = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const ok = crypto.verify(
    'sha256',
    Buffer.from(`${head}.${payload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('VAPID signature does not verify');
  return { k, claims: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) };
}
