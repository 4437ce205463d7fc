import { ErrorCode } from '@coffer/contract';
import { describe, expect, it } from 'vitest';
import { matchingStep, newTotpSecret } from '../modules/two-factor/totp.ts';
import { authenticatorCode, sendPreviousCode } from './authenticator.ts';

/** A server's check of a code at the clock's time, as /api/2fa/enable does it (one step either side). */
const serverAnswer = (secret: string, code: string, now: number) => ({
  code: matchingStep(secret, code, now) === null ? ErrorCode.WRONG_SECOND_FACTOR : 0,
});

describe('authenticator codes in tests', () => {
  const secret = newTotpSecret();
  const justBeforeBoundary = 1_800_000_029_990; // 10 ms before a 30 s step ends

  it('a previous step’s code refused when a step boundary passes in flight: the flake CI hit', () => {
    const code = authenticatorCode(secret, -1, justBeforeBoundary);
    expect(serverAnswer(secret, code, justBeforeBoundary).code).toBe(0);
    expect(serverAnswer(secret, code, justBeforeBoundary + 20).code).toBe(ErrorCode.WRONG_SECOND_FACTOR);
  });

  it('sends the new previous step’s code once when the boundary passed, and that is accepted', async () => {
    let now = justBeforeBoundary;
    const sent: string[] = [];
    const { answer } = await sendPreviousCode(
      secret,
      async (code) => {
        sent.push(code);
        now += 20; // the request takes 20 ms
        return serverAnswer(secret, code, now);
      },
      () => now,
    );
    expect(answer.code).toBe(0);
    expect(sent).toHaveLength(2);
    expect(sent[0]).not.toBe(sent[1]);
  });

  it('answers a refusal as it is when no boundary passed, or when it passed on the resend too', async () => {
    let now = 1_800_000_010_000;
    let calls = 0;
    const wrong = await sendPreviousCode(
      secret,
      async () => {
        calls++;
        return { code: ErrorCode.WRONG_SECOND_FACTOR };
      },
      () => now,
    );
    expect([wrong.answer.code, calls]).toEqual([ErrorCode.WRONG_SECOND_FACTOR, 1]);
    calls = 0;
    const slow = await sendPreviousCode(
      secret,
      async () => {
        calls++;
        now += 30_000;
        return { code: ErrorCode.WRONG_SECOND_FACTOR };
      },
      () => now,
    );
    expect([slow.answer.code, calls]).toEqual([ErrorCode.WRONG_SECOND_FACTOR, 2]);
  });
});
