import type { DepositRecord, WithdrawRecord } from '@coffer/contract/chain';
import { describe, expect, it } from 'vitest';
import { depositTimeline, withdrawTimeline } from './timeline';

const deposit: DepositRecord = {
  id: 1,
  currencyId: 1,
  code: 'ETH',
  networkId: 1,
  networkName: 'Ethereum (local)',
  amount: '1',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  fromAddress: '0x0000000000000000000000000000000000000001',
  txHash: `0x${'ab'.repeat(32)}`,
  logIndex: 0,
  blockNumber: 10,
  confirmations: 1,
  confirmationsRequired: 3,
  status: 'pending',
  reference: null,
  createdAt: '2030-01-01T00:00:00.000Z',
  creditedAt: null,
};

const withdrawal: WithdrawRecord = {
  id: 7,
  currencyId: 1,
  code: 'ETH',
  networkId: 1,
  networkName: 'Ethereum (local)',
  address: '0x52908400098527886E0F7030069857D2E4169EE7',
  amount: '0.5',
  fee: '0.001',
  total: '0.501',
  memo: null,
  status: 'queued',
  txHash: null,
  confirmations: 0,
  confirmationsRequired: 3,
  reason: null,
  waitReason: null,
  waitSince: null,
  reference: 11,
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-01T00:01:00.000Z',
  completedAt: null,
};

const states = (steps: { key: string; state: string }[]) => steps.map((s) => `${s.key}:${s.state}`);

describe('depositTimeline', () => {
  it('shows confirmations in progress, then credited', () => {
    expect(states(depositTimeline(deposit))).toEqual(['detected:finish', 'confirming:process', 'credited:wait']);
    const credited = depositTimeline({ ...deposit, status: 'credited', creditedAt: '2030-01-01T00:02:00.000Z' });
    expect(states(credited)).toEqual(['detected:finish', 'confirming:finish', 'credited:finish']);
    expect(credited.at(-1)?.time).toBe('2030-01-01T00:02:00.000Z');
  });

  it('an unconfirmed deposit (in a mempool) waits for its block before confirming', () => {
    const steps = depositTimeline({ ...deposit, status: 'unconfirmed', blockNumber: 0, confirmations: 0 });
    expect(states(steps)).toEqual(['unconfirmed:process', 'confirming:wait', 'credited:wait']);
    expect(steps[0]?.time).toBe(deposit.createdAt);
  });

  it('ends in an error step for dropped, below-minimum and reorged deposits', () => {
    expect(states(depositTimeline({ ...deposit, status: 'dropped' }))).toEqual(['detected:finish', 'dropped:error']);
    expect(states(depositTimeline({ ...deposit, status: 'below_minimum' }))).toEqual(['detected:finish', 'belowMinimum:error']);
    expect(states(depositTimeline({ ...deposit, status: 'reorged_after_credit' })).at(-1)).toBe('reorged:error');
  });
});

describe('withdrawTimeline', () => {
  it('walks submitted, queued, broadcast, confirming, completed', () => {
    expect(states(withdrawTimeline(withdrawal))).toEqual([
      'submitted:finish',
      'queued:process',
      'broadcast:wait',
      'confirming:wait',
      'completed:wait',
    ]);
    expect(states(withdrawTimeline({ ...withdrawal, status: 'confirming' })).slice(2)).toEqual([
      'broadcast:finish',
      'confirming:process',
      'completed:wait',
    ]);
    const done = withdrawTimeline({ ...withdrawal, status: 'completed', completedAt: '2030-01-01T00:05:00.000Z' });
    expect(done.every((s) => s.state === 'finish')).toBe(true);
    expect(done.at(-1)?.time).toBe('2030-01-01T00:05:00.000Z');
    expect(done.find((s) => s.key === 'confirming')?.confirmations).toBe(true);
  });

  it('shows the review step while waiting for review', () => {
    expect(states(withdrawTimeline({ ...withdrawal, status: 'review' })).slice(0, 3)).toEqual([
      'submitted:finish',
      'review:process',
      'queued:wait',
    ]);
  });

  it('ends rejected, cancelled and failed withdrawals where they stopped', () => {
    expect(states(withdrawTimeline({ ...withdrawal, status: 'rejected' }))).toEqual([
      'submitted:finish',
      'review:finish',
      'rejected:error',
    ]);
    expect(states(withdrawTimeline({ ...withdrawal, status: 'cancelled' }))).toEqual(['submitted:finish', 'cancelled:finish']);
    expect(states(withdrawTimeline({ ...withdrawal, status: 'failed' }))).toEqual(['submitted:finish', 'queued:finish', 'failed:error']);
    expect(states(withdrawTimeline({ ...withdrawal, status: 'failed', txHash: `0x${'cd'.repeat(32)}` }))).toEqual([
      'submitted:finish',
      'queued:finish',
      'broadcast:finish',
      'failed:error',
    ]);
  });
});
