import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import { MAC_HEADER, NONCE_HEADER, RequestGuard, responseMac } from './channel.ts';
import { type SignerService, signRequestSchema } from './service.ts';
import { utxoSignRequestSchema } from './utxo-request.ts';

/** Largest request body read (a signing request is a few hundred bytes). */
const MAX_BODY_BYTES = 64 * 1024;

export interface SignerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * The signer's HTTP endpoint: POST /v1/info (xpub, hot address, chains), POST /v1/sign, and
 * GET /healthz (unauthenticated, for monitoring: answers {"ok":true} and nothing else).
 * Every request must carry a valid MAC, a fresh timestamp and an unused nonce; every answer to
 * an authenticated request carries a MAC the caller checks.
 */
export function createSignerServer(service: SignerService, secret: Buffer, log: SignerLog, clock: () => number = Date.now): Server {
  const guard = new RequestGuard(secret);
  return createServer((req, res) => {
    readBody(req).then(
      (body) => handle(req, res, body),
      () => answer(res, 413, { refused: 'too_large' }),
    );
  });

  async function handle(req: IncomingMessage, res: ServerResponse, body: string) {
    const path = req.url ?? '';
    // for monitoring: alive and serving; says nothing about keys or limits
    if (req.method === 'GET' && path === '/healthz') return answer(res, 200, { ok: true });
    if (req.method !== 'POST' || !['/v1/info', '/v1/sign', '/v1/sign-utxo'].includes(path))
      return answer(res, 404, { refused: 'not_found' });
    const refusal = guard.check(req.method, path, req.headers, body, clock());
    if (refusal) {
      log.warn({ refusal, path }, 'signer request refused at the channel');
      return answer(res, 401, { refused: refusal });
    }
    const nonce = req.headers[NONCE_HEADER] as string;
    const reply = (status: number, value: object) => {
      const text = JSON.stringify(value);
      res.writeHead(status, { 'content-type': 'application/json', [MAC_HEADER]: responseMac(secret, nonce, status, text) });
      res.end(text);
    };
    if (path === '/v1/info') return reply(200, await service.info());
    if (path === '/v1/sign-utxo') {
      return signWith(body, reply, utxoSignRequestSchema, (req) => service.signUtxo(req), (req) => ({ chainId: req.chainId }));
    }
    return signWith(body, reply, signRequestSchema, (req) => service.sign(req), (req) => ({ key: req.key.kind }));
  }

  /** Parses a signing request, signs it, and answers: 400 malformed, 403 refused by the policy, 500 failed, 200 signed. */
  async function signWith<S extends z.ZodType>(
    body: string,
    reply: (status: number, value: object) => void,
    schema: S,
    sign: (req: z.output<S>) => Promise<object & ({ refused: string; message: string } | object)>,
    about: (req: z.output<S>) => object,
  ) {
    let parsed: z.ZodSafeParseResult<z.output<S>>;
    try {
      parsed = schema.safeParse(JSON.parse(body));
    } catch {
      return reply(400, { refused: 'bad_request', message: 'body is not JSON' });
    }
    if (!parsed.success) return reply(400, { refused: 'bad_request', message: parsed.error.issues[0]?.message ?? 'bad request' });
    try {
      const outcome = await sign(parsed.data);
      if ('refused' in outcome) {
        log.warn({ refusal: outcome.refused, message: outcome.message, ...about(parsed.data) }, 'signer refused a transaction');
        return reply(403, outcome);
      }
      return reply(200, outcome);
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'signer failed');
      return reply(500, { refused: 'signer_error', message: 'the signer could not sign or journal' });
    }
  }
}

function answer(res: ServerResponse, status: number, value: object) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Listens on host:port (port 0: any free one) and resolves with the port. */
export function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}
