import type { FaultKind } from './faults.ts';
import type { RowCounts } from './model.ts';

/** The simulator's actions and their weights: each step draws one (decision 023). */
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

/** A check that failed: the run stops at the first one and reports it as the divergence. */
export class Diverged extends Error {}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Diverged(message);
}

export interface SimUser {
  uid: number;
  email: string;
  token: string;
}

export interface CurrencyInfo {
  id: number;
  code: string;
  decimals: number;
  transferMin: string | null;
  transferMax: string | null;
}

export interface PairInfo {
  from: number;
  to: number;
  min: string | null;
  max: string | null;
}

export interface TransferReq {
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

export interface SwapReq {
  kind: 'swap';
  user: SimUser;
  fromCurrencyId: number;
  toCurrencyId: number;
  amount: string;
  key: string | null;
}

export type HttpReq = TransferReq | SwapReq;

export interface AdjustReq {
  kind: 'adjust';
  user: SimUser;
  currencyId: number;
  amount: string;
  direction: 'credit' | 'debit';
  reason: string;
  key: string | null;
}

export type Req = HttpReq | AdjustReq;

export interface Answer {
  status: number;
  code: number;
  data: Record<string, unknown> | null;
}

/** A key's first final answer, as the client remembers it (id unknown when the answer was lost). */
export interface Known {
  req: Req;
  code: number;
  id?: number;
}
