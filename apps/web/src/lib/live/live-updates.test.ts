import { LIVE_EVENT_TYPES, liveEvent } from '@coffer/contract/chain';
import { describe, expect, it } from 'vitest';
import { keysToInvalidate, parseLiveEvent } from './live-updates';
import { fallbackPollInterval, LIVE_FALLBACK_POLL_MS } from './status';

describe('parseLiveEvent', () => {
  const samples = [
    '{"type":"deposit","id":12,"status":"pending"}',
    '{"type":"withdraw","id":3,"status":"broadcast","extra":true}',
    '{"type":"balance","id":1,"status":"changed"}',
    '{"type":"refund","id":1,"status":"x"}',
    '{"type":"deposit","id":"12","status":"pending"}',
    '{"type":"deposit","id":1.5,"status":"pending"}',
    '{"type":"deposit","id":1}',
    '[1,2]',
    'null',
    'not json',
  ];

  it('accepts exactly what the contract schema accepts', () => {
    for (const data of samples) {
      let expected: unknown = null;
      try {
        const parsed = liveEvent.safeParse(JSON.parse(data));
        expected = parsed.success ? parsed.data : null;
      } catch {
        expected = null;
      }
      expect(parseLiveEvent(data), data).toEqual(expected);
    }
  });

  it('knows every event type of the contract', () => {
    for (const type of LIVE_EVENT_TYPES) expect(parseLiveEvent(JSON.stringify({ type, id: 1, status: 's' }))?.type).toBe(type);
  });
});

describe('keysToInvalidate', () => {
  it('marks balances, deposits, withdrawals and statements stale, plus the record itself', () => {
    expect(keysToInvalidate({ type: 'deposit', id: 5, status: 'credited' })).toEqual([
      ['balances'],
      ['deposits'],
      ['withdrawals'],
      ['turnover'],
      ['deposits', 'detail', 5],
    ]);
    expect(keysToInvalidate({ type: 'withdraw', id: 9, status: 'completed' }).at(-1)).toEqual(['withdrawals', 'detail', 9]);
    expect(keysToInvalidate({ type: 'balance', id: 1, status: 'changed' })).toHaveLength(4);
  });
});

describe('fallbackPollInterval', () => {
  it('polls only while the stream is not open and there is something to watch', () => {
    expect(fallbackPollInterval('open', true)).toBe(false);
    expect(fallbackPollInterval('down', true)).toBe(LIVE_FALLBACK_POLL_MS);
    expect(fallbackPollInterval('connecting', true)).toBe(LIVE_FALLBACK_POLL_MS);
    expect(fallbackPollInterval('off', true)).toBe(LIVE_FALLBACK_POLL_MS);
    expect(fallbackPollInterval('down', false)).toBe(false);
  });
});
