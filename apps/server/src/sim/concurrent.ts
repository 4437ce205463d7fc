import { ErrorCode } from '@coffer/contract';
import { hashToken, TOKEN_HEAD } from '../core/session.ts';
import { remember, type SimContext } from './context.ts';
import { replayLanded, send, single } from './delivery.ts';
import { apply, expectAnswer, idOf, predict } from './expectations.ts';
import type { BatchFault, FiredBatch, Writer } from './faults.ts';
import type { SwapEffect } from './model.ts';
import { bodyOf, describe } from './requests.ts';
import { type Answer, check, type HttpReq, type SwapReq } from './types.ts';

/** A fault to arm on one writer's nth batch statement. */
export interface BatchFaultPlan {
  writer: Writer;
  kind: BatchFault;
  nth: number;
}

/** Where a request landed in a batch that committed and lost its answer. */
interface Landing {
  batch: FiredBatch;
  index: number;
}

/** The request item i of a batch statement a fault fired on stands for, if the simulator sent it. */
function requestAt(reqs: readonly HttpReq[], f: FiredBatch, i: number): HttpReq | undefined {
  // coffer_transfer_batch(token_hashes, to_uids, to_emails, currencies, amounts, memos, keys, hashes);
  // coffer_swap_batch(token_hashes, keys, hashes, quotes, froms, tos, from_amounts, to_amounts, fees, fee_currencies, ...).
  if (f.writer === 'transfer') return reqs.find((r) => r.kind === 'transfer' && r.memo === (f.params[5] as unknown[])[i]);
  const tokenHash = (f.params[0] as unknown[])[i];
  const key = (f.params[1] as unknown[])[i] ?? null;
  return reqs.find((r) => r.kind === 'swap' && hashToken(r.user.token.slice(TOKEN_HEAD.length)) === tokenHash && r.key === key);
}

const batchSize = (f: FiredBatch) => (f.params[0] ?? []).length;

function swapEffectAt(r: SwapReq, f: FiredBatch, i: number): SwapEffect {
  return {
    uid: r.user.uid,
    fromCurrencyId: Number((f.params[4] as number[])[i]),
    toCurrencyId: Number((f.params[5] as number[])[i]),
    fromAmount: String((f.params[6] as string[])[i]),
    toAmount: String((f.params[7] as string[])[i]),
    fee: String((f.params[8] as string[])[i]),
    feeCurrencyId: Number((f.params[9] as number[])[i]),
  };
}

/**
 * Sends every request, in two waves when the split falls inside the list: a second wave, sent
 * once the first one's statement is on its way, queues behind it: two statements (a fault on
 * the 2nd needs them).
 */
async function sendInWaves(ctx: SimContext, reqs: HttpReq[], fault: BatchFaultPlan | undefined): Promise<Answer[]> {
  const { rnd, viaRnd, env } = ctx;
  // For a fault on the 2nd statement, the second wave starts with or before the last
  // request sent for the first time (a duplicate alone may be answered without a batch).
  const lastFirst = Math.max(...reqs.map((r, i) => (reqs.indexOf(r) === i ? i : 0)));
  const split = fault?.nth === 2 && lastFirst > 0 ? 1 + rnd.int(lastFirst) : rnd.int(reqs.length) || reqs.length;
  const sent = () => [env.faulty, env.idle].reduce((n, f) => n + f.statements.transfer + f.statements.swap, 0);
  const before = sent();
  // With a fault armed (on the first app's writer) every request goes to that app: the
  // fault must find its statement. Elsewhere either app, a twin's copies too.
  const via = reqs.map(() => (fault ? 0 : viaRnd.int(env.apps.length)));
  const firstWave = reqs.slice(0, split).map((r, i) => send(ctx, r, bodyOf(r), via[i]));
  for (let turn = 0; split < reqs.length && sent() === before && turn < 10_000; turn++) {
    await new Promise((r) => setImmediate(r));
  }
  return Promise.all([...firstWave, ...reqs.slice(split).map((r, i) => send(ctx, r, bodyOf(r), via[split + i]))]);
}

/** Counts the faults that fired; returns where lost-after-commit batches landed and how often each request sat in a faulted batch. */
function readFiredBatches(ctx: SimContext, distinct: HttpReq[], fired: FiredBatch[]) {
  const landed = new Map<HttpReq, Landing>();
  const inFaulted = new Map<HttpReq, number>();
  for (const f of fired) {
    ctx.tally.faults[f.fault]++;
    ctx.tally.faultBatchSizes.push(batchSize(f));
    for (let i = 0; i < batchSize(f); i++) {
      const r = requestAt(distinct, f, i);
      check(r, `item ${i + 1} of a ${f.writer} batch is no request the simulator sent (batch signature changed?)`);
      inFaulted.set(r, (inFaulted.get(r) ?? 0) + 1);
      if (f.fault === 'lost-after-commit' && !landed.has(r)) landed.set(r, { batch: f, index: i });
    }
  }
  return { landed, inFaulted };
}

/**
 * Settles one distinct request of a burst against the model from its copies' answers; returns
 * whether the client must retry it (keyed, no copy answered) and whether it landed.
 */
function settle(ctx: SimContext, r: HttpReq, code: number, answers: Answer[], landing: Landing | undefined, faultedCopies: number) {
  const what = describe(ctx, r);
  const failed = answers.filter((a) => a.status === 500 && a.code === ErrorCode.INTERNAL);
  const answered = answers.filter((a) => !failed.includes(a));
  check(failed.length <= faultedCopies, `${what}: ${failed.length} of its copies answered 500 outside any injected fault`);
  if (landing) check(failed.length > 0, `${what}: its batch committed and the answer was lost, yet every copy answered`);
  let swap: SwapEffect | undefined;
  for (const a of answered) swap = expectAnswer(ctx, r, a, code, a.data?.replayed === true) ?? swap;
  if (code === 0 && answered.length > 0) {
    const ids = new Set(answered.map(idOf));
    check(ids.size === 1, `${what}: its copies answered ids ${[...ids].join(', ')}`);
    const fresh = answered.filter((a) => a.data!.replayed === false).length;
    check(fresh <= 1, `${what}: ${fresh} copies answered as new`);
    check(fresh === 1 || landing, `${what}: every copy answered as a replay, but no copy ran`);
  }
  if (landing || answered.length > 0) {
    apply(ctx, r, code, r.kind === 'swap' && code === 0 ? (swap ?? swapEffectAt(r, landing!.batch, landing!.index)) : undefined);
  }
  if (answered.length > 0) remember(ctx, { req: r, code, ...(code === 0 && { id: idOf(answered[0]!)! }) });
  return { retry: answered.length === 0 && Boolean(r.key), landed: landing !== undefined };
}

/**
 * Sends requests at once (they may share batches; a request listed twice is a duplicate
 * delivered concurrently), optionally with a fault armed on one writer's nth batch
 * statement, then settles each distinct request against the model:
 * - a copy in a batch lost after commit landed there (or replayed an earlier copy there):
 *   its caller must have seen an error, and the request happened once;
 * - a copy in a batch of another fault left nothing of that statement in the database: it
 *   failed, or the writer ran it again and it answers like any other copy;
 * - copies that answered all answer the prediction, with one id and at most one of them
 *   new (replayed: false); none new and none landed is a replay of nothing.
 * A keyed request none of whose copies answered is sent again, as a client retries, and
 * must answer the key's one outcome: the landed one, or a fresh run.
 */
export async function concurrent(ctx: SimContext, reqs: HttpReq[], fault?: BatchFaultPlan): Promise<void> {
  const distinct = [...new Set(reqs)];
  const predicted = new Map(distinct.map((r) => [r, predict(ctx, r)]));
  if (fault) ctx.env.faulty.armBatch(fault.writer, fault.kind, fault.nth);
  const got = await sendInWaves(ctx, reqs, fault);
  const { fired } = ctx.env.faulty.collect();
  ctx.env.idle.collect();
  const { landed, inFaulted } = readFiredBatches(ctx, distinct, fired);
  const retries: { r: HttpReq; landed: boolean; code: number }[] = [];
  for (const r of distinct) {
    const code = predicted.get(r)!;
    const answers = got.filter((_, i) => reqs[i] === r);
    const outcome = settle(ctx, r, code, answers, landed.get(r), inFaulted.get(r) ?? 0);
    if (outcome.retry) retries.push({ r, landed: outcome.landed, code });
  }
  for (const { r, landed: done, code } of retries) {
    if (done) await replayLanded(ctx, r, code);
    else await single(ctx, r);
  }
}
