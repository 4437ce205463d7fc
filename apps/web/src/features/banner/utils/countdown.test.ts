import { describe, expect, it } from 'vitest';
import { countdownAt, splitDuration } from './countdown';

describe('countdownAt', () => {
  const start = '2026-11-22T08:00:00Z';
  const end = '2026-11-29T08:00:00Z';
  const at = (iso: string) => Date.parse(iso);

  it('counts to the start before the activity opens', () => {
    expect(countdownAt(start, end, at('2026-11-22T07:59:58.500Z'))).toEqual({ phase: 'upcoming', seconds: 2 });
  });

  it('counts to the end while it runs, from the start instant on', () => {
    expect(countdownAt(start, end, at(start))).toEqual({ phase: 'live', seconds: 7 * 24 * 3600 });
    expect(countdownAt(start, end, at('2026-11-29T07:59:59Z'))).toEqual({ phase: 'live', seconds: 1 });
  });

  it('is ended at and after the end, and for unreadable times', () => {
    expect(countdownAt(start, end, at(end))).toEqual({ phase: 'ended', seconds: 0 });
    expect(countdownAt(start, end, at('2027-01-01T00:00:00Z'))).toEqual({ phase: 'ended', seconds: 0 });
    expect(countdownAt('soon', end, at(start))).toEqual({ phase: 'ended', seconds: 0 });
  });
});

describe('splitDuration', () => {
  it('splits into days and a two-digit clock', () => {
    expect(splitDuration(93_784)).toEqual({ days: 1, hh: '02', mm: '03', ss: '04' });
    expect(splitDuration(59)).toEqual({ days: 0, hh: '00', mm: '00', ss: '59' });
    expect(splitDuration(10 * 86_400)).toEqual({ days: 10, hh: '00', mm: '00', ss: '00' });
  });

  it('never goes below zero', () => {
    expect(splitDuration(-5)).toEqual({ days: 0, hh: '00', mm: '00', ss: '00' });
  });
});
