import { newContext, newTally, type SimContext, type Tally } from './context.ts';
import { openEnvironment } from './environment.ts';
import { Model } from './model.ts';
import { setupWorld } from './setup.ts';
import { STEPS } from './steps.ts';
import { ACTIONS, type Action, Diverged, type Divergence, type SimOptions, type SimReport } from './types.ts';
import { verify } from './verify.ts';

export { ACTIONS, type Action, type Divergence, type SimOptions, type SimReport } from './types.ts';

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
 *
 * The run is setup (setup.ts), then one step per drawn action (steps.ts: steps-plain.ts,
 * steps-delivery.ts, steps-faults.ts), each followed by the checks (verify.ts).
 */
export async function runSimulation(opts: SimOptions): Promise<SimReport> {
  const started = Date.now();
  const model = new Model();
  const tally = newTally();
  const env = await openEnvironment(opts.databaseUrl);
  const timing = { started, stepsStarted: 0 };
  const report = (completed: number, divergence: Divergence | null) =>
    buildReport(opts, env.raw.kind, model, tally, timing, completed, divergence);
  let ctx: SimContext | null = null;
  let action: Action | 'setup' = 'setup';
  try {
    const world = await setupWorld(env, model, Math.max(opts.users ?? 8, 4));
    ctx = newContext(opts.seed, env, model, world, tally);
    timing.stepsStarted = Date.now();
    for (ctx.step = 1; ctx.step <= opts.steps; ctx.step++) {
      action = ctx.rnd.weighted(ACTIONS);
      tally.actions[action]++;
      await STEPS[action](ctx);
      await verify(env.raw, model);
      opts.onStep?.(ctx.step, action);
    }
    return report(opts.steps, null);
  } catch (e) {
    const message = e instanceof Diverged ? e.message : `unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
    const step = ctx?.step ?? 0;
    return report(Math.max(step - 1, 0), { step, action, message });
  } finally {
    await env.close();
  }
}

/** The report of a run that completed `completed` steps, with its divergence if any. */
function buildReport(
  opts: SimOptions,
  database: SimReport['database'],
  model: Model,
  tally: Tally,
  timing: { started: number; stepsStarted: number },
  completed: number,
  divergence: Divergence | null,
): SimReport {
  const elapsedMs = Date.now() - timing.started;
  const setupMs = (timing.stepsStarted || Date.now()) - timing.started;
  return {
    seed: opts.seed,
    steps: opts.steps,
    completed,
    database,
    ...tally,
    rows: { ...model.rows },
    divergence,
    elapsedMs,
    setupMs,
    stepsPerSecond: completed / Math.max((elapsedMs - setupMs) / 1000, 0.001),
  };
}
