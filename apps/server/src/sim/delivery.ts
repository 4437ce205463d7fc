import { isBizError } from '../core/errors.ts';
import { adjustBalance } from '../ledger/adjust.ts';
import { countAnswer, remember, type SimContext } from './context.ts';
import { apply, expectAnswer, idOf, predict } from './expectations.ts';
import { adjustInput, bodyOf } from './requests.ts';
import type { AdjustReq, Answer, HttpReq, Known, Req } from './types.ts';

/**
 * Sends a transfer or swap over HTTP to one of the two apps (drawn from the app stream unless
 * given) and counts its answer.
 */
export async function send(ctx: SimContext, r: HttpReq, body = bodyOf(r), via = ctx.viaRnd.int(ctx.env.apps.length)): Promise<Answer> {
  const token = r.kind === 'transfer' ? r.from.token : r.user.token;
  const headers: Record<string, string> = { 'x-token': token };
  if (r.key) headers['idempotency-key'] = r.key;
  const url = r.kind === 'swap' ? '/api/swap/apply' : r.byEmail ? '/api/transfer/transferByEmail' : '/api/transfer/transferByUID';
  // Either of the two API processes (own writers, one database): twins may cross them.
  const res = await ctx.env.apps[via]!.inject({ method: 'POST', url, headers, payload: body });
  const json = res.json() as { code: number; message?: string; data: Record<string, unknown> | null };
  if (process.env.SIM_DEBUG) console.error(url, JSON.stringify(body), json.code, json.message);
  const a = { status: res.statusCode, code: json.code, data: json.data };
  countAnswer(ctx, a.code === 0 && a.data?.replayed === true ? 'replayed' : String(a.code));
  return a;
}

/** Runs an adjustment through adjustBalance (as the route and the CLI do), its refusal as an answer. */
export async function runAdjust(ctx: SimContext, r: AdjustReq): Promise<Answer> {
  try {
    const res = await adjustBalance(ctx.env.faulty.database, adjustInput(ctx.world.operator, r));
    countAnswer(ctx, res.replayed ? 'replayed' : '0');
    return { status: 200, code: 0, data: res as unknown as Record<string, unknown> };
  } catch (e) {
    if (!isBizError(e)) throw e;
    countAnswer(ctx, String(e.bizCode));
    return { status: e.httpStatus, code: e.bizCode, data: null };
  }
}

export const deliver = (ctx: SimContext, r: Req) => (r.kind === 'adjust' ? runAdjust(ctx, r) : send(ctx, r));

/** One request sent alone: predicted, sent, checked, applied, remembered. */
export async function single(ctx: SimContext, r: Req): Promise<void> {
  const code = predict(ctx, r);
  const a = await deliver(ctx, r);
  const swap = expectAnswer(ctx, r, a, code, false);
  apply(ctx, r, code, swap);
  if (r.kind !== 'adjust' || code === 0) remember(ctx, { req: r, code, ...(code === 0 && { id: idOf(a)! }) });
}

/** Sends a remembered request again (same key, same body): its first answer, nothing moved. */
export async function replay(ctx: SimContext, k: Known): Promise<void> {
  const a = await deliver(ctx, k.req);
  expectAnswer(ctx, k.req, a, k.code, true, k);
  if (k.code === 0 && k.id === undefined) k.id = idOf(a);
}

/** A request whose answer was lost after it landed: replayed (and remembered) as the client retries. */
export async function replayLanded(ctx: SimContext, r: Req, code: number): Promise<void> {
  const k: Known = { req: r, code };
  await replay(ctx, k);
  remember(ctx, k);
}
