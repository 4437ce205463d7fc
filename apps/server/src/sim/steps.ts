import type { SimContext } from './context.ts';
import { burstStep, duplicateStep, reusedKeyStep, twinsStep } from './steps-delivery.ts';
import { faultAdjustStep, faultBatchStep, faultRefusalStep } from './steps-faults.ts';
import { adjustStep, refusedStep, swapStep, transferStep } from './steps-plain.ts';
import type { Action } from './types.ts';

/** One step per action: what the simulator does when the seed draws it. */
export const STEPS: Record<Action, (ctx: SimContext) => Promise<void>> = {
  transfer: transferStep,
  swap: swapStep,
  adjust: adjustStep,
  burst: burstStep,
  duplicate: duplicateStep,
  twins: twinsStep,
  'reused-key': reusedKeyStep,
  refused: refusedStep,
  'fault-batch': faultBatchStep,
  'fault-adjust': faultAdjustStep,
  'fault-refusal': faultRefusalStep,
};
