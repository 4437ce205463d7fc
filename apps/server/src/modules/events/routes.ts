import { ErrorCode, envelope } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageFor, requestLocale } from '../../core/locale.ts';
import { onSessionsRevoked, sessionActive } from '../../core/session.ts';
import { StreamRegistry } from './streams.ts';

/** A comment line keeps proxies from closing an idle stream. */
export const HEARTBEAT_MS = 15_000;

/**
 * GET /api/events: the signed-in user's live events as server-sent events (deposit seen,
 * confirmed, credited; withdrawal progress). `id:` is the event's sequence number, so a client
 * that reconnects with Last-Event-ID gets what it missed. The app invalidates its queries
 * on each event and falls back to polling while the stream is down.
 */
export async function eventRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { events } = app.deps.chain;
  const { db } = app.deps.database;
  // Open streams never go idle: end them when the server closes, or shutdown would wait.
  const open = new Set<import('node:http').ServerResponse>();
  const streams = new StreamRegistry();
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  app.get(
    '/events',
    {
      preHandler: app.authenticate,
      schema: {
        tags: ['events'],
        security: [{ token: [] }],
        summary: 'Server-sent events of the signed-in user (text/event-stream; data is {type, id, status})',
        description:
          'At most 3 streams per session and 8 per user in one server process: a new stream over either cap closes the ' +
          'oldest, which receives a last `event: closed` whose data is the envelope {code: 2011, message, data: null}.',
        headers: z.object({
          'last-event-id': z
            .string()
            .regex(/^\d{1,15}$/)
            .optional(),
        }),
        response: { 200: envelope(z.null()).describe('Only on failure (e.g. 2001); success is a text/event-stream') },
      },
    },
    async (request, reply) => {
      const userId = request.user.id;
      const locale = requestLocale(request);
      const lastId = request.headers['last-event-id'];
      const backlog = lastId === undefined ? [] : await events.replay(userId, Number(lastId));
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      const send = (e: { seq: number; type: string; id: number; status: string }) => {
        res.write(`id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify({ type: e.type, id: e.id, status: e.status })}\n\n`);
      };
      res.write('retry: 3000\n\n');
      for (const e of backlog) send(e);
      const unsubscribe = events.subscribe(userId, send);
      open.add(res);
      // Over a cap the oldest stream goes, told why, so no account can hold connections without bound.
      const release = streams.add(userId, request.user.sessionId, () => {
        const refusal = { code: ErrorCode.TOO_MANY_STREAMS, message: messageFor(ErrorCode.TOO_MANY_STREAMS, locale), data: null };
        res.end(`event: closed\ndata: ${JSON.stringify(refusal)}\n\n`);
      });
      // A session signed out elsewhere ends its stream: at once when signed out through this
      // process (logout, password reset or change, security centre, operator's disable), else
      // at the next heartbeat's check of the session row.
      const { sessionId } = request.user;
      const stopWatching = onSessionsRevoked(db, (ids) => {
        if (ids.includes(sessionId)) res.end();
      });
      const heartbeat = setInterval(() => {
        res.write(': ping\n\n');
        sessionActive(db, sessionId).then(
          (active) => active || res.end(),
          () => {},
        );
      }, HEARTBEAT_MS);
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        stopWatching();
        unsubscribe();
        release();
        open.delete(res);
      };
      res.on('close', close);
      request.raw.on('close', close);
      res.on('error', close);
    },
  );
}
