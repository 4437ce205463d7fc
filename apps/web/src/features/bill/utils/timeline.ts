import type { DepositRecord, WithdrawRecord, WithdrawStatus } from '@coffer/contract/chain';

/**
 * The status timeline of a deposit or withdrawal as plain data (step keys are i18n keys
 * under chain.steps), so the rules are testable apart from the page.
 */

export type StepState = 'finish' | 'process' | 'wait' | 'error';

export interface TimelineStep {
  key: string;
  state: StepState;
  /** When the step happened, if the record says. */
  time?: string | null;
  /** The step shows the n/N confirmations. */
  confirmations?: boolean;
}

export function depositTimeline(record: DepositRecord): TimelineStep[] {
  const detected: TimelineStep = { key: 'detected', state: 'finish', time: record.createdAt };
  switch (record.status) {
    case 'unconfirmed':
      // In a UTXO node's mempool only: not in a block yet, may still be replaced (decision 056).
      return [
        { key: 'unconfirmed', state: 'process', time: record.createdAt },
        { key: 'confirming', state: 'wait', confirmations: true },
        { key: 'credited', state: 'wait' },
      ];
    case 'pending':
      return [detected, { key: 'confirming', state: 'process', confirmations: true }, { key: 'credited', state: 'wait' }];
    case 'credited':
      return [
        detected,
        { key: 'confirming', state: 'finish', confirmations: true },
        { key: 'credited', state: 'finish', time: record.creditedAt },
      ];
    case 'dropped':
      return [detected, { key: 'dropped', state: 'error' }];
    case 'below_minimum':
      return [detected, { key: 'belowMinimum', state: 'error' }];
    case 'reorged_after_credit':
      return [
        detected,
        { key: 'confirming', state: 'finish', confirmations: true },
        { key: 'credited', state: 'finish', time: record.creditedAt },
        { key: 'reorged', state: 'error' },
      ];
  }
}

/** The way a withdrawal normally goes; review appears only when it is or was the reason it stopped. */
const WITHDRAW_PATH: readonly WithdrawStatus[] = ['review', 'queued', 'broadcast', 'confirming', 'completed'];

function pathSteps(record: WithdrawRecord, withReview: boolean): TimelineStep[] {
  const path = WITHDRAW_PATH.filter((status) => withReview || status !== 'review');
  const current = path.indexOf(record.status);
  return path.map((status, index) => {
    const state: StepState = index < current || record.status === 'completed' ? 'finish' : index === current ? 'process' : 'wait';
    return {
      key: status,
      state,
      ...(status === 'confirming' ? { confirmations: true } : {}),
      ...(status === 'completed' ? { time: record.completedAt } : {}),
    };
  });
}

export function withdrawTimeline(record: WithdrawRecord): TimelineStep[] {
  const submitted: TimelineStep = { key: 'submitted', state: 'finish', time: record.createdAt };
  switch (record.status) {
    case 'review':
      return [submitted, ...pathSteps(record, true)];
    case 'queued':
    case 'broadcast':
    case 'confirming':
    case 'completed':
      return [submitted, ...pathSteps(record, false)];
    case 'rejected':
      return [submitted, { key: 'review', state: 'finish' }, { key: 'rejected', state: 'error', time: record.updatedAt }];
    case 'cancelled':
      return [submitted, { key: 'cancelled', state: 'finish', time: record.updatedAt }];
    case 'failed':
      return [
        submitted,
        { key: 'queued', state: 'finish' },
        ...(record.txHash ? [{ key: 'broadcast', state: 'finish' } as TimelineStep] : []),
        { key: 'failed', state: 'error', time: record.updatedAt },
      ];
  }
}
