import type { Environment } from './environment.ts';
import { ADJUST_FAULTS, BATCH_FAULTS, type FaultKind, REFUSAL_FAULTS } from './faults.ts';
import type { Model } from './model.ts';
import { Prng } from './prng.ts';
import { ACTIONS, type Action, type CurrencyInfo, type Known, type PairInfo, type SimUser } from './types.ts';

/** What setup found and made: the currencies and pairs the run moves, who moves them. */
export interface World {
  currencies: CurrencyInfo[];
  byId: Map<number, CurrencyInfo>;
  usdt: CurrencyInfo;
  usdc: CurrencyInfo;
  pairs: PairInfo[];
  operator: SimUser;
  people: SimUser[];
}

/** What the run counted, for its report. */
export interface Tally {
  actions: Record<Action, number>;
  faults: Record<FaultKind, number>;
  /** Sizes (items) of the batches batch faults fired on. */
  faultBatchSizes: number[];
  /** Answers by code over every request sent (0 = done), replays counted apart. */
  answers: Record<string, number>;
}

/** One run's state, handed to every step: the seeded streams, the model, the apps, the world. */
export interface SimContext {
  seed: number;
  /** The main stream: every choice of what to do. */
  rnd: Prng;
  /**
   * Which app a request goes to, on a stream of its own: how many requests a fault leaves to
   * retry depends on how a burst was batched, and must not shift the main stream's choices.
   */
  viaRnd: Prng;
  model: Model;
  env: Environment;
  world: World;
  tally: Tally;
  /** Keyed requests with their first final answer, for duplicates and reused keys. */
  history: Known[];
  /** Counters behind unique Idempotency-Keys and memos. */
  sequence: { key: number; memo: number };
  /** Which fault kind of each family comes next (they take turns from a seeded start). */
  faultTurn: { batch: number; adjust: number; refusal: number };
  /** The step running (1-based), for adjustment reasons. */
  step: number;
}

export function newTally(): Tally {
  return {
    actions: Object.fromEntries(Object.keys(ACTIONS).map((a) => [a, 0])) as Record<Action, number>,
    faults: Object.fromEntries([...BATCH_FAULTS, ...ADJUST_FAULTS, ...REFUSAL_FAULTS].map((f) => [f, 0])) as Record<FaultKind, number>,
    faultBatchSizes: [],
    answers: {},
  };
}

export function newContext(seed: number, env: Environment, model: Model, world: World, tally: Tally): SimContext {
  return {
    seed,
    rnd: new Prng(seed),
    viaRnd: new Prng(seed ^ 0x5eed5eed),
    model,
    env,
    world,
    tally,
    history: [],
    sequence: { key: 0, memo: 0 },
    faultTurn: { batch: 0, adjust: 0, refusal: 0 },
    step: 0,
  };
}

/** Counts one answer under its label (a code, or "replayed"). */
export function countAnswer(ctx: SimContext, label: string): void {
  ctx.tally.answers[label] = (ctx.tally.answers[label] ?? 0) + 1;
}

/** Keeps a keyed request's first final answer (unkeyed ones cannot be repeated). */
export function remember(ctx: SimContext, known: Known): void {
  if (known.req.key) ctx.history.push(known);
}
