import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode } from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { startChain } from '../chain/runtime.ts';
import { loadConfig } from '../config.ts';
import { isBizError } from '../core/errors.ts';
import { createSession, hashToken, TOKEN_HEAD } from '../core/session.ts';
import { type Database, migrateDatabase, openPglite, openPostgres } from '../db/client.ts';
import { createScratchDatabase } from '../db/scratch.ts';
import { users } from '../db/schema/index.ts';
import { type AdjustInput, adjustBalance } from '../ledger/adjust.ts';
import { auditLedger } from '../ledger/audit.ts';
import { createMailer } from '../mail/mailer.ts';
import {
  ADJUST_FAULTS,
  type AdjustFault,
  BATCH_FAULTS,
  type BatchFault,
  type FaultKind,
  type FaultyDatabase,
  type FiredBatch,
  REFUSAL_FAULTS,
  type RefusalFault,
  withFaults,
  type Writer,
} from './faults.ts';
import { Model, type RowCounts, type SwapEffect } from './model.ts';
import { decimal, fromMinor, units } from './money.ts';
import { Prng } from './prng.ts';
import { silentLog } from '../core/log.ts';

/**
 * The ledger simulator (decision 023): from a seed, M steps of transfers, swaps,
 * adjustments, duplicate deliveries, refused requests and injected faults against the real
 * app (HTTP through app.inject, adjustments through adjustBalance as the route and the CLI
 * call it). After every step the ledger audit must be clean and every account's balance and
 * the ledger's row counts must equal the model's exactly; the first difference stops the run.
 *
 * Determinism: every choice comes from the seed. What the timing may still change (which of
 * a burst's concurrent requests share a batch) is read back from the batch the fault fired
 * on, never guessed, and a burst's requests use disjoint users, so their outcomes do not
 * depend on the order they ran in.
 */

export const ACTIONS = {
  transfer: 22,
  swap: 10,
  adjust: 8,
  burst: 10,
  duplicate: 12,
  twins: 6,
  'reused-key': 4,
  refused: 10,
  'fault-batch': 14,
  'fault-adjust': 4,
  'fault-refusal': 3,
} as const;
export type Action = keyof typeof ACTIONS;

export interface SimOptions {
  seed: number;
  steps: number;
  /** A PostgreSQL server: the run creates a fresh database on it and drops it afterwards. */
  databaseUrl?: string | undefined;
  /** Users who send and receive (at least 4). */
  users?: number;
  /** Called after each step that passed its checks. */
  onStep?: (step: number, action: Action) => void;
}

export interface Divergence {
  step: number;
  action: Action | 'setup';
  message: string;
}

export interface SimReport {
  seed: number;
  steps: number;
  /** Steps run to the end with every check passed. */
  completed: number;
  database: 'pglite' | 'postgres';
  actions: Record<Action, number>;
  faults: Record<FaultKind, number>;
  /** Sizes (items) of the batches batch faults fired on. */
  faultBatchSizes: number[];
  /** Answers by code over every request sent (0 = done), replays counted apart. */
  answers: Record<string, number>;
  rows: RowCounts;
  divergence: Divergence | null;
  elapsedMs: number;
  /** Opening the database, migrating, building the apps, users and their funding. */
  setupMs: number;
  /** Steps per second after setup, checks included. */
  stepsPerSecond: number;
}

class Diverged extends Error {}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Diverged(message);
}

interface SimUser {
  uid: number;
  email: string;
  token: string;
}

interface CurrencyInfo {
  id: number;
  code: string;
  decimals: number;
  transferMin: string | null;
  transferMax: string | null;
}

interface PairInfo {
  from: number;
  to: number;
  min: string | null;
  max: string | null;
}

interface TransferReq {
  kind: 'transfer';
  from: SimUser;
  to: SimUser;
  byEmail: boolean;
  currencyId: number;
  amount: string;
  /** Unique per request: tells its item in a batch's parameters. */
  memo: string;
  key: string | null;
}

interface SwapReq {
  kind: 'swap';
  user: SimUser;
  fromCurrencyId: number;
  toCurrencyId: number;
  amount: string;
  key: string | null;
}

type HttpReq = TransferReq | SwapReq;

interface AdjustReq {
  kind: 'adjust';
  user: SimUser;
  currencyId: number;
  amount: string;
  direction: 'credit' | 'debit';
  reason: string;
  key: string | null;
}

type Req = HttpReq | AdjustReq;

interface Answer {
  status: number;
  code: number;
  data: Record<string, unknown> | null;
}

/** A key's first final answer, as the client remembers it (id unknown when the answer was lost). */
interface Known {
  req: Req;
  code: number;
  id?: number;
}

/** Refusals the ledger keeps under their key (decision 012); adjustments keep none. */
const KEPT = new Set<number>([ErrorCode.INSUFFICIENT_BALANCE, ErrorCode.AMOUNT_OUT_OF_RANGE, ErrorCode.CANNOT_SEND_TO_SELF]);

/** Upper bounds of random amounts, in whole units of the currency (a few per balance). */
const TYPICAL_MAX: Record<string, string> = { USDT: '300', USDC: '300', BTC: '0.05' };
const FUNDING: Record<string, string> = { USDT: '1000', USDC: '1000', BTC: '0.5' };

export async function runSimulation(opts: SimOptions): Promise<SimReport> {
  const started = Date.now();
  const rnd = new Prng(opts.seed);
  // Which app a request goes to, on a stream of its own: how many requests a fault leaves to
  // retry depends on how a burst was batched, and must not shift the main stream's choices.
  const viaRnd = new Prng(opts.seed ^ 0x5eed5eed);
  const model = new Model();
  const actions = Object.fromEntries(Object.keys(ACTIONS).map((a) => [a, 0])) as Record<Action, number>;
  const faults = Object.fromEntries([...BATCH_FAULTS, ...ADJUST_FAULTS, ...REFUSAL_FAULTS].map((f) => [f, 0])) as Record<FaultKind, number>;
  const faultBatchSizes: number[] = [];
  const answers: Record<string, number> = {};
  const count = (label: string) => {
    answers[label] = (answers[label] ?? 0) + 1;
  };

  let stepsStarted = 0;
  const env = await openEnvironment(opts.databaseUrl);
  const { raw, faulty, apps, idle } = env;
  const report = (completed: number, divergence: Divergence | null): SimReport => {
    const elapsedMs = Date.now() - started;
    const setupMs = (stepsStarted || Date.now()) - started;
    return {
      seed: opts.seed,
      steps: opts.steps,
      completed,
      database: raw.kind,
      actions,
      faults,
      faultBatchSizes,
      answers,
      rows: { ...model.rows },
      divergence,
      elapsedMs,
      setupMs,
      stepsPerSecond: completed / Math.max((elapsedMs - setupMs) / 1000, 0.001),
    };
  };

  let step = 0;
  let action: Action | 'setup' = 'setup';
  try {
    // --- setup: currencies, pairs, users with money (through adjustments, in the model too)
    const currencies = (
      await raw.sql.query<{ id: number; code: string; decimals: number; transfer_min: string | null; transfer_max: string | null }>(
        `select id, code, decimals, transfer_min::text as transfer_min, transfer_max::text as transfer_max
           from currencies where code = any($1) order by id`,
        [Object.keys(FUNDING)],
      )
    ).map(
      (c): CurrencyInfo => ({
        id: Number(c.id),
        code: c.code,
        decimals: Number(c.decimals),
        transferMin: c.transfer_min,
        transferMax: c.transfer_max,
      }),
    );
    check(currencies.length === Object.keys(FUNDING).length, `currencies ${Object.keys(FUNDING)} not all seeded`);
    const byCode = new Map(currencies.map((c) => [c.code, c]));
    const byId = new Map(currencies.map((c) => [c.id, c]));
    const usdt = byCode.get('USDT')!;
    const usdc = byCode.get('USDC')!;
    const pairs = (
      await raw.sql.query<{ from_currency_id: number; to_currency_id: number; min_amount: string | null; max_amount: string | null }>(
        `select from_currency_id, to_currency_id, min_amount::text as min_amount, max_amount::text as max_amount
           from swap_pairs where from_currency_id = any($1) and to_currency_id = any($1)`,
        [[usdt.id, usdc.id]],
      )
    ).map((p): PairInfo => ({ from: Number(p.from_currency_id), to: Number(p.to_currency_id), min: p.min_amount, max: p.max_amount }));
    check(pairs.length === 2, 'the USDT/USDC swap pairs are not seeded');

    const operator = await makeUser(raw, 'operator', 'operator');
    const people: SimUser[] = [];
    for (let i = 0; i < Math.max(opts.users ?? 8, 4); i++) people.push(await makeUser(raw, `user${i}`, 'user'));
    for (const u of people) {
      for (const c of currencies) {
        const funding: AdjustReq = {
          kind: 'adjust',
          user: u,
          currencyId: c.id,
          amount: FUNDING[c.code]!,
          direction: 'credit',
          reason: 'sim funding',
          key: null,
        };
        await adjustBalance(faulty.database, adjustInput(operator, funding));
        model.adjust(u.uid, c.id, FUNDING[c.code]!);
      }
    }
    await verify(raw, model);

    // --- helpers over the model and the app
    let keySeq = 0;
    let memoSeq = 0;
    const newKey = () => `sim-${opts.seed}-key-${++keySeq}`;
    const history: Known[] = [];
    const byKey = new Map<string, Known>();
    const remember = (k: Known) => {
      if (!k.req.key) return;
      history.push(k);
      byKey.set(k.req.key, k);
    };

    const randomAmount = (c: CurrencyInfo) => {
      const max = units(TYPICAL_MAX[c.code]!) / 10n ** BigInt(18 - c.decimals);
      return fromMinor(rnd.big(1n, max), c.decimals);
    };
    const decimalsOf = (v: string) => (v.split('.')[1] ?? '').replace(/0+$/, '').length;

    const newTransfer = (from: SimUser, to: SimUser, c: CurrencyInfo, amount = randomAmount(c)): TransferReq => ({
      kind: 'transfer',
      from,
      to,
      byEmail: rnd.chance(50),
      currencyId: c.id,
      amount,
      memo: `sim ${opts.seed}.${++memoSeq}`,
      key: rnd.chance(80) ? newKey() : null,
    });
    const newSwap = (user: SimUser, amount?: string): SwapReq => {
      const [from, to] = rnd.chance(50) ? [usdt, usdc] : [usdc, usdt];
      // 1 to 150 whole units, up to 6 decimals: inside the pair's limits.
      return {
        kind: 'swap',
        user,
        fromCurrencyId: from.id,
        toCurrencyId: to.id,
        amount: amount ?? fromMinor(rnd.big(1_000_000n, 150_000_000n), 6),
        key: rnd.chance(80) ? newKey() : null,
      };
    };

    /** The answer the model expects for a request sent now (0: done). */
    const predict = (r: Req): number => {
      if (r.kind === 'transfer') {
        const c = byId.get(r.currencyId)!;
        const a = units(r.amount);
        if (r.to.uid === r.from.uid) return ErrorCode.CANNOT_SEND_TO_SELF;
        if (a <= 0n || decimalsOf(r.amount) > c.decimals) return ErrorCode.AMOUNT_OUT_OF_RANGE;
        if ((c.transferMin && a < units(c.transferMin)) || (c.transferMax && a > units(c.transferMax)))
          return ErrorCode.AMOUNT_OUT_OF_RANGE;
        return model.balance(r.from.uid, r.currencyId) < a ? ErrorCode.INSUFFICIENT_BALANCE : 0;
      }
      if (r.kind === 'swap') {
        const p = pairs.find((x) => x.from === r.fromCurrencyId && x.to === r.toCurrencyId)!;
        const a = units(r.amount);
        if ((p.min && a < units(p.min)) || (p.max && a > units(p.max))) return ErrorCode.AMOUNT_OUT_OF_RANGE;
        return model.balance(r.user.uid, r.fromCurrencyId) < a ? ErrorCode.INSUFFICIENT_BALANCE : 0;
      }
      if (r.direction === 'debit' && model.balance(r.user.uid, r.currencyId) < units(r.amount)) return ErrorCode.INSUFFICIENT_BALANCE;
      return 0;
    };

    /** Applies a final outcome to the model: money for a success, a kept refusal for a keyed one. */
    const apply = (r: Req, code: number, swap?: SwapEffect) => {
      if (code !== 0) {
        if (r.key && r.kind !== 'adjust' && KEPT.has(code)) model.keptRefusal();
        return;
      }
      if (r.kind === 'transfer') model.transfer(r.from.uid, r.to.uid, r.currencyId, r.amount);
      else if (r.kind === 'swap') model.swap(swap!);
      else model.adjust(r.user.uid, r.currencyId, r.direction === 'debit' ? `-${r.amount}` : r.amount);
    };

    const send = async (r: HttpReq, body = bodyOf(r), via = viaRnd.int(apps.length)): Promise<Answer> => {
      const token = r.kind === 'transfer' ? r.from.token : r.user.token;
      const headers: Record<string, string> = { 'x-token': token };
      if (r.key) headers['idempotency-key'] = r.key;
      const url = r.kind === 'swap' ? '/api/swap/apply' : r.byEmail ? '/api/transfer/transferByEmail' : '/api/transfer/transferByUID';
      // Either of the two API processes (own writers, one database): twins may cross them.
      const res = await apps[via]!.inject({ method: 'POST', url, headers, payload: body });
      const json = res.json() as { code: number; message?: string; data: Record<string, unknown> | null };
      if (process.env.SIM_DEBUG) console.error(url, JSON.stringify(body), json.code, json.message);
      const a = { status: res.statusCode, code: json.code, data: json.data };
      count(a.code === 0 && a.data?.replayed === true ? 'replayed' : String(a.code));
      return a;
    };

    const runAdjust = async (r: AdjustReq, amount = r.amount): Promise<Answer> => {
      try {
        const res = await adjustBalance(faulty.database, adjustInput(operator, { ...r, amount }));
        count(res.replayed ? 'replayed' : '0');
        return { status: 200, code: 0, data: res as unknown as Record<string, unknown> };
      } catch (e) {
        if (!isBizError(e)) throw e;
        count(String(e.bizCode));
        return { status: e.httpStatus, code: e.bizCode, data: null };
      }
    };

    const deliver = (r: Req) => (r.kind === 'adjust' ? runAdjust(r) : send(r));

    const describe = (r: Req) =>
      r.kind === 'transfer'
        ? `transfer ${r.amount} ${byId.get(r.currencyId)!.code} ${r.from.uid}->${r.to.uid} key ${r.key}`
        : r.kind === 'swap'
          ? `swap ${r.amount} ${byId.get(r.fromCurrencyId)!.code}->${byId.get(r.toCurrencyId)!.code} by ${r.user.uid} key ${r.key}`
          : `adjust ${r.direction} ${r.amount} ${byId.get(r.currencyId)!.code} of ${r.user.uid} key ${r.key}`;

    /** Checks an answer against the model's expectation; returns the swap's effect for the model. */
    const expectAnswer = (r: Req, a: Answer, code: number, replayed: boolean, known?: Known): SwapEffect | undefined => {
      check(a.code === code, `${describe(r)}: answered ${a.code}, the model expected ${code}${known ? " (the key's first answer)" : ''}`);
      if (code !== 0) {
        check(a.data === null, `${describe(r)}: a refusal carried data`);
        return undefined;
      }
      const d = a.data!;
      check(d.replayed === replayed, `${describe(r)}: replayed ${d.replayed}, expected ${replayed}`);
      if (known?.id !== undefined) {
        const id = Number(d.id ?? d.adjustmentId);
        check(id === known.id, `${describe(r)}: replay answered id ${id}, the key's is ${known.id}`);
      }
      if (r.kind === 'transfer') {
        check(units(String(d.amount)) === units(r.amount), `${describe(r)}: answered amount ${d.amount}`);
        check(Number(d.currencyId) === r.currencyId, `${describe(r)}: answered currency ${d.currencyId}`);
        check(Number((d.counterparty as { uid: number }).uid) === r.to.uid, `${describe(r)}: answered another recipient`);
        return undefined;
      }
      if (r.kind === 'adjust') {
        const signed = r.direction === 'debit' ? -units(r.amount) : units(r.amount);
        check(units(String(d.amount)) === signed, `${describe(r)}: answered amount ${d.amount}`);
        return undefined;
      }
      check(units(String(d.fromAmount)) === units(r.amount), `${describe(r)}: answered fromAmount ${d.fromAmount}`);
      check(
        Number(d.fromCurrencyId) === r.fromCurrencyId && Number(d.toCurrencyId) === r.toCurrencyId,
        `${describe(r)}: answered another pair`,
      );
      check(units(String(d.toAmount)) > 0n && units(String(d.fee)) >= 0n, `${describe(r)}: answered toAmount ${d.toAmount}, fee ${d.fee}`);
      return {
        uid: r.user.uid,
        fromCurrencyId: r.fromCurrencyId,
        toCurrencyId: r.toCurrencyId,
        fromAmount: String(d.fromAmount),
        toAmount: String(d.toAmount),
        fee: String(d.fee),
        feeCurrencyId: Number(d.feeCurrencyId),
      };
    };

    const idOf = (a: Answer) => (a.data ? Number(a.data.id ?? a.data.adjustmentId) : undefined);

    /** One request sent alone: predicted, sent, checked, applied, remembered. */
    const single = async (r: Req) => {
      const code = predict(r);
      const a = await deliver(r);
      const swap = expectAnswer(r, a, code, false);
      apply(r, code, swap);
      if (r.kind !== 'adjust' || code === 0) remember({ req: r, code, ...(code === 0 && { id: idOf(a)! }) });
    };

    /** Sends a remembered request again (same key, same body): its first answer, nothing moved. */
    const replay = async (k: Known) => {
      const a = await deliver(k.req);
      expectAnswer(k.req, a, k.code, true, k);
      if (k.code === 0 && k.id === undefined) k.id = idOf(a);
    };

    /** Up to `n` requests over disjoint users (outcomes independent of their order). */
    const burstOf = (n: number, only?: Writer): HttpReq[] => {
      const free = rnd.sample(people, people.length);
      const out: HttpReq[] = [];
      while (out.length < n && free.length > 0) {
        const kind: Writer = only ?? (rnd.chance(65) ? 'transfer' : 'swap');
        // Some overdraw (3001 inside a batch: refused in its subtransaction, kept under its key).
        if (kind === 'transfer' && free.length >= 2) {
          const [from, to, c] = [free.pop()!, free.pop()!, rnd.pick(currencies)];
          const over = rnd.chance(12) ? decimal(model.balance(from.uid, c.id) + units(randomAmount(c))) : undefined;
          out.push(newTransfer(from, to, c, over));
        } else if (kind === 'swap') {
          const r = newSwap(free.pop()!);
          if (rnd.chance(12)) r.amount = decimal(model.balance(r.user.uid, r.fromCurrencyId) + units('0.000001'));
          out.push(r);
        } else break;
      }
      return out;
    };

    /** The request item i of a batch statement a fault fired on stands for, if the simulator sent it. */
    const requestAt = (reqs: readonly HttpReq[], f: FiredBatch, i: number): HttpReq | undefined => {
      // coffer_transfer_batch(token_hashes, to_uids, to_emails, currencies, amounts, memos, keys, hashes);
      // coffer_swap_batch(token_hashes, keys, hashes, quotes, froms, tos, from_amounts, to_amounts, fees, fee_currencies, ...).
      if (f.writer === 'transfer') return reqs.find((r) => r.kind === 'transfer' && r.memo === (f.params[5] as unknown[])[i]);
      const tokenHash = (f.params[0] as unknown[])[i];
      const key = (f.params[1] as unknown[])[i] ?? null;
      return reqs.find((r) => r.kind === 'swap' && hashToken(r.user.token.slice(TOKEN_HEAD.length)) === tokenHash && r.key === key);
    };
    const batchSize = (f: FiredBatch) => (f.params[0] ?? []).length;
    const swapEffectAt = (r: SwapReq, f: FiredBatch, i: number): SwapEffect => ({
      uid: r.user.uid,
      fromCurrencyId: Number((f.params[4] as number[])[i]),
      toCurrencyId: Number((f.params[5] as number[])[i]),
      fromAmount: String((f.params[6] as string[])[i]),
      toAmount: String((f.params[7] as string[])[i]),
      fee: String((f.params[8] as string[])[i]),
      feeCurrencyId: Number((f.params[9] as number[])[i]),
    });

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
    const concurrent = async (reqs: HttpReq[], fault?: { writer: Writer; kind: BatchFault; nth: number }) => {
      const distinct = [...new Set(reqs)];
      const predicted = new Map(distinct.map((r) => [r, predict(r)]));
      if (fault) faulty.armBatch(fault.writer, fault.kind, fault.nth);
      // A second wave, sent once the first one's statement is on its way, queues behind it:
      // two statements (a fault on the 2nd needs them).
      // For a fault on the 2nd statement, the second wave starts with or before the last
      // request sent for the first time (a duplicate alone may be answered without a batch).
      const lastFirst = Math.max(...reqs.map((r, i) => (reqs.indexOf(r) === i ? i : 0)));
      const split = fault?.nth === 2 && lastFirst > 0 ? 1 + rnd.int(lastFirst) : rnd.int(reqs.length) || reqs.length;
      const sent = () => [faulty, idle].reduce((n, f) => n + f.statements.transfer + f.statements.swap, 0);
      const before = sent();
      // With a fault armed (on the first app's writer) every request goes to that app: the
      // fault must find its statement. Elsewhere either app, a twin's copies too.
      const via = reqs.map(() => (fault ? 0 : viaRnd.int(apps.length)));
      const firstWave = reqs.slice(0, split).map((r, i) => send(r, bodyOf(r), via[i]));
      for (let turn = 0; split < reqs.length && sent() === before && turn < 10_000; turn++) {
        await new Promise((r) => setImmediate(r));
      }
      const got = await Promise.all([...firstWave, ...reqs.slice(split).map((r, i) => send(r, bodyOf(r), via[split + i]))]);
      const { fired } = faulty.collect();
      idle.collect();
      const landed = new Map<HttpReq, { batch: FiredBatch; index: number }>();
      const inFaulted = new Map<HttpReq, number>();
      for (const f of fired) {
        faults[f.fault]++;
        faultBatchSizes.push(batchSize(f));
        for (let i = 0; i < batchSize(f); i++) {
          const r = requestAt(distinct, f, i);
          check(r, `item ${i + 1} of a ${f.writer} batch is no request the simulator sent (batch signature changed?)`);
          inFaulted.set(r, (inFaulted.get(r) ?? 0) + 1);
          if (f.fault === 'lost-after-commit' && !landed.has(r)) landed.set(r, { batch: f, index: i });
        }
      }
      const retries: { r: HttpReq; landed: boolean; code: number }[] = [];
      for (const r of distinct) {
        const code = predicted.get(r)!;
        const answers = got.filter((_, i) => reqs[i] === r);
        const failed = answers.filter((a) => a.status === 500 && a.code === ErrorCode.INTERNAL);
        const answered = answers.filter((a) => !failed.includes(a));
        const l = landed.get(r);
        check(
          failed.length <= (inFaulted.get(r) ?? 0),
          `${describe(r)}: ${failed.length} of its copies answered 500 outside any injected fault`,
        );
        if (l) check(failed.length > 0, `${describe(r)}: its batch committed and the answer was lost, yet every copy answered`);
        let swap: SwapEffect | undefined;
        for (const a of answered) swap = expectAnswer(r, a, code, a.data?.replayed === true) ?? swap;
        if (code === 0 && answered.length > 0) {
          const ids = new Set(answered.map(idOf));
          check(ids.size === 1, `${describe(r)}: its copies answered ids ${[...ids].join(', ')}`);
          const fresh = answered.filter((a) => a.data!.replayed === false).length;
          check(fresh <= 1, `${describe(r)}: ${fresh} copies answered as new`);
          check(fresh === 1 || l, `${describe(r)}: every copy answered as a replay, but no copy ran`);
        }
        if (l || answered.length > 0) {
          apply(r, code, r.kind === 'swap' && code === 0 ? (swap ?? swapEffectAt(r, l!.batch, l!.index)) : undefined);
        }
        if (answered.length > 0) remember({ req: r, code, ...(code === 0 && { id: idOf(answered[0]!)! }) });
        else if (r.key) retries.push({ r, landed: l !== undefined, code });
      }
      for (const { r, landed: done, code } of retries) {
        if (done) {
          const k: Known = { req: r, code };
          await replay(k);
          remember(k);
        } else {
          await single(r);
        }
      }
    };

    /** Sometimes one keyed request of a burst twice, at a random place: a concurrent duplicate delivery. */
    const withTwin = (reqs: HttpReq[]): HttpReq[] => {
      if (!rnd.chance(30)) return reqs;
      const r = rnd.pick(reqs);
      r.key ??= newKey();
      const out = [...reqs];
      out.splice(rnd.int(out.length + 1), 0, r);
      return out;
    };

    const faultTurn = { batch: 0, adjust: 0, refusal: 0 };

    const steps: Record<Action, () => Promise<void>> = {
      transfer: async () => {
        const [from, to] = rnd.sample(people, 2) as [SimUser, SimUser];
        await single(newTransfer(from, to, rnd.pick(currencies)));
      },
      swap: () => single(newSwap(rnd.pick(people))),
      adjust: async () => {
        const u = rnd.pick(people);
        const c = rnd.pick(currencies);
        const direction = rnd.chance(60) ? 'credit' : 'debit';
        // A debit is sometimes more than the balance (3001, not kept: adjustments keep no refusal).
        const amount =
          direction === 'debit' && rnd.chance(30) ? decimal(model.balance(u.uid, c.id) + units(randomAmount(c))) : randomAmount(c);
        await single({
          kind: 'adjust',
          user: u,
          currencyId: c.id,
          amount,
          direction,
          reason: `sim step ${step}`,
          key: rnd.chance(70) ? newKey() : null,
        });
      },
      burst: () => concurrent(withTwin(burstOf(2 + rnd.int(5)))),
      duplicate: async () => {
        if (history.length === 0) return steps.transfer();
        await replay(rnd.pick(history));
      },
      twins: async () => {
        const r = rnd.chance(70) ? burstOf(1, 'transfer')[0]! : newSwap(rnd.pick(people));
        r.key = newKey();
        const code = predict(r);
        const [a, b] = await Promise.all([send(r), send(r)]);
        check(
          a.code === code && b.code === code,
          `${describe(r)} twice at once: answered ${a.code} and ${b.code}, the model expected ${code}`,
        );
        if (code === 0) {
          check(idOf(a) === idOf(b), `${describe(r)} twice at once: two ids ${idOf(a)} and ${idOf(b)}`);
          check([a, b].filter((x) => x.data!.replayed === false).length === 1, `${describe(r)} twice at once: not exactly one new answer`);
        }
        const first = a.data?.replayed === false ? a : b;
        apply(r, code, code === 0 ? expectAnswer(r, first, code, false) : undefined);
        remember({ req: r, code, ...(code === 0 && { id: idOf(a)! }) });
      },
      'reused-key': async () => {
        const candidates = history.filter((k) => k.req.kind !== 'adjust');
        if (candidates.length === 0) return steps.transfer();
        const k = rnd.pick(candidates);
        const r = k.req as HttpReq;
        const other = { ...bodyOf(r), amount: decimal(units(r.amount) + 1_000_000_000_000n) };
        const a = await send(r, other);
        check(
          a.code === ErrorCode.IDEMPOTENCY_KEY_REUSED,
          `${describe(r)} with another amount under its key: answered ${a.code}, expected 3010`,
        );
      },
      refused: async () => {
        const [u, v] = rnd.sample(people, 2) as [SimUser, SimUser];
        const c = rnd.pick(currencies);
        const variant = rnd.pick(['insufficient', 'bad-decimals', 'self', 'swap-below-min', 'swap-insufficient'] as const);
        let r: HttpReq;
        if (variant === 'insufficient') r = newTransfer(u, v, c, decimal(model.balance(u.uid, c.id) + units(randomAmount(c))));
        else if (variant === 'bad-decimals') r = newTransfer(u, v, c, `1.${'0'.repeat(c.decimals)}1`);
        else if (variant === 'self') r = newTransfer(u, u, c);
        else if (variant === 'swap-below-min') r = newSwap(u, '0.5');
        else {
          r = newSwap(u);
          r.amount = decimal(model.balance(u.uid, r.fromCurrencyId) + units('0.000001'));
        }
        check(predict(r) !== 0, `refused step (${variant}) built a request the model expects to pass`);
        await single(r);
      },
      'fault-batch': async () => {
        const writer: Writer = rnd.chance(60) ? 'transfer' : 'swap';
        // Kinds in turn (from a seeded start), so that a short run injects each of them.
        const kind = BATCH_FAULTS[(faultTurn.batch++ + opts.seed) % BATCH_FAULTS.length]!;
        // More requests without a key than elsewhere: the ones a lost answer leaves unknown to their client.
        const burst = burstOf(1 + rnd.int(6), writer);
        for (const r of burst) if (rnd.chance(40)) r.key = null;
        const reqs = withTwin(burst);
        await concurrent(reqs, { writer, kind, nth: new Set(reqs).size > 1 && rnd.chance(40) ? 2 : 1 });
      },
      'fault-refusal': async () => {
        // A keyed swap below the pair's minimum: 3002, kept by one ledger_keep_refusal() statement.
        const fault: RefusalFault = REFUSAL_FAULTS[(faultTurn.refusal++ + opts.seed) % REFUSAL_FAULTS.length]!;
        const r = newSwap(rnd.pick(people), '0.5');
        r.key = newKey();
        const code = predict(r);
        check(code === ErrorCode.AMOUNT_OUT_OF_RANGE, `${describe(r)}: the model expected ${code}, not 3002`);
        faulty.armRefusal(fault);
        const a = await send(r, bodyOf(r), 0);
        const { refusalFired } = faulty.collect();
        check(refusalFired === fault, `${describe(r)}: the armed ${fault} did not fire (answered ${a.code})`);
        faults[fault]++;
        check(
          a.status === 500 && a.code === ErrorCode.INTERNAL,
          `${describe(r)}: its refusal's statement lost the connection, yet it answered ${a.status}/${a.code}`,
        );
        if (fault === 'refusal-lost-after-commit') {
          apply(r, code);
          const k: Known = { req: r, code };
          await replay(k);
          remember(k);
        } else {
          await single(r);
        }
      },
      'fault-adjust': async () => {
        const fault: AdjustFault = ADJUST_FAULTS[(faultTurn.adjust++ + opts.seed) % ADJUST_FAULTS.length]!;
        const c = rnd.pick(currencies);
        const r: AdjustReq = {
          kind: 'adjust',
          user: rnd.pick(people),
          currencyId: c.id,
          amount: randomAmount(c),
          direction: 'credit',
          reason: `sim step ${step}`,
          key: rnd.chance(70) ? newKey() : null,
        };
        faulty.armAdjust(fault);
        let error: unknown = null;
        try {
          await runAdjust(r);
        } catch (e) {
          error = e;
        }
        const { adjustFired } = faulty.collect();
        check(adjustFired === fault, `${describe(r)}: the armed ${fault} did not fire`);
        faults[fault]++;
        check(error !== null, `${describe(r)}: answered although its connection was lost`);
        const landed = fault === 'adjust-lost-after-commit';
        if (landed) apply(r, 0);
        if (!r.key) return;
        if (landed) {
          const k: Known = { req: r, code: 0 };
          await replay(k);
          remember(k);
        } else {
          await single(r);
        }
      },
    };

    stepsStarted = Date.now();
    for (step = 1; step <= opts.steps; step++) {
      action = rnd.weighted(ACTIONS);
      actions[action]++;
      await steps[action]();
      await verify(raw, model);
      opts.onStep?.(step, action);
    }
    return report(opts.steps, null);
  } catch (e) {
    const message = e instanceof Diverged ? e.message : `unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
    return report(Math.max(step - 1, 0), { step, action, message });
  } finally {
    await env.close();
  }
}

function bodyOf(r: HttpReq): Record<string, unknown> {
  if (r.kind === 'swap') return { fromCurrencyId: r.fromCurrencyId, toCurrencyId: r.toCurrencyId, amount: r.amount };
  return { ...(r.byEmail ? { email: r.to.email } : { uid: r.to.uid }), currencyId: r.currencyId, amount: r.amount, memo: r.memo };
}

function adjustInput(operator: SimUser, r: AdjustReq): AdjustInput {
  return {
    user: { uid: r.user.uid },
    currency: r.currencyId,
    amount: r.amount,
    direction: r.direction,
    reason: r.reason,
    actor: operator.email,
    actorUserId: operator.uid,
    idempotencyKey: r.key,
  };
}

/** The checks after every step: audit clean, every balance and row count as the model says. */
async function verify(database: Database, model: Model): Promise<void> {
  const audit = await auditLedger(database);
  const failed = audit.checks.filter((c) => !c.ok);
  check(failed.length === 0, `ledger audit: ${failed.map((c) => `${c.name} (${c.violations}: ${JSON.stringify(c.sample)})`).join('; ')}`);
  const accounts = await database.sql.query<{ user_id: number | null; currency_id: number; kind: string; balance: string }>(
    'select user_id, currency_id, kind, balance::text as balance from accounts',
  );
  const balanceDiff = model.diffBalances(accounts);
  check(balanceDiff.length === 0, `balances: ${balanceDiff.join('; ')}`);
  const [rows] = await database.sql.query<RowCounts>(
    `select (select count(*) from transfers)::int as transfers, (select count(*) from swaps)::int as swaps,
            (select count(*) from adjustments)::int as adjustments,
            (select count(*) from journal_entries where refusal is null)::int as entries,
            (select count(*) from journal_entries where refusal is not null)::int as refusals,
            (select count(*) from postings)::int as postings,
            (select count(*) from operator_actions where action = 'ledger.adjust')::int as "adjustActions"`,
  );
  const rowDiff = model.diffRows(rows!);
  check(rowDiff.length === 0, `rows: ${rowDiff.join('; ')}`);
}

async function makeUser(database: Database, name: string, role: 'user' | 'operator'): Promise<SimUser> {
  const email = `${name}-${crypto.randomBytes(4).toString('hex')}@sim.coffer`;
  const [row] = await database.db
    .insert(users)
    .values({ email, passwordHash: 'sim-user-no-password', nickname: name, role })
    .returning({ id: users.id });
  const token = await createSession(database.db, row!.id, 24, {});
  return { uid: row!.id, email, token: TOKEN_HEAD + token };
}

interface Environment {
  raw: Database;
  /** The database of the first app, where faults are armed. */
  faulty: FaultyDatabase;
  /** The second app's (the same wrapper, never armed: its writers are its own). */
  idle: FaultyDatabase;
  apps: FastifyInstance[];
  close(): Promise<void>;
}

/**
 * A fresh database (PGlite in memory, or a new database on the PostgreSQL server named by
 * `databaseUrl`, dropped at the end) and the app over it, built as the server builds it but
 * with no chain connection, no rate limits and no log. The app gets the fault-injecting
 * wrapper of the database; the checks read the database directly.
 */
async function openEnvironment(databaseUrl: string | undefined): Promise<Environment> {
  let raw: Database;
  let drop = async () => {};
  if (databaseUrl) {
    const scratch = await createScratchDatabase(databaseUrl, 'coffer_sim');
    raw = await openPostgres(scratch.url, 20);
    drop = scratch.drop;
  } else {
    raw = await openPglite();
  }
  await migrateDatabase(raw);
  const faulty = withFaults(raw);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coffer-sim-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    // SIM_LOG=error (or another level) writes the app's log to stderr, e.g. to see a 5000's cause.
    LOG_LEVEL: process.env.SIM_LOG ?? 'silent',
    RATE_LIMIT: 'off',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    CONSOLE_DIST_DIR: path.join(dataDir, 'no-console'),
  });
  const mailer = createMailer({ from: config.MAIL_FROM, dataDir, log: silentLog });
  const chain = await startChain({ config, database: faulty.database, log: silentLog, connect: false, loop: false });
  // Two apps over one database, as two API processes: each has its own transfer and swap
  // writer (they are per Database object), so batches of both may run at once.
  const idle = withFaults(raw);
  const apps: FastifyInstance[] = [];
  for (const database of [faulty.database, idle.database]) {
    const app = await buildApp(
      { config, database, mailer, chain },
      process.env.SIM_LOG ? { logStream: process.stderr } : { logger: false },
    );
    await app.ready();
    apps.push(app);
  }
  return {
    raw,
    faulty,
    idle,
    apps,
    async close() {
      for (const app of apps) await app.close();
      await chain.stop();
      mailer.close();
      await raw.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
