import { ErrorCode } from '@coffer/contract';
import { describe, expect, it } from 'vitest';
import { rethrowLedgerError, sqlState } from './sql-errors.ts';

const driverError = (code: string) => Object.assign(new Error('driver'), { code, severity: 'ERROR' });

describe('sqlState (the one reader of a SQLSTATE in the server)', () => {
  it("reads a driver error's own code, and a drizzle wrapper's cause", () => {
    expect(sqlState(driverError('23505'))).toBe('23505');
    expect(sqlState(new Error('Failed query', { cause: driverError('CB001') }))).toBe('CB001');
  });

  it('takes only codes of SQLSTATE shape: a Node code on the wrapper does not hide the cause', () => {
    expect(sqlState(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBeUndefined();
    expect(sqlState(Object.assign(new Error('x', { cause: driverError('40P01') }), { code: 'ERR_QUERY' }))).toBe('40P01');
    expect(sqlState(undefined)).toBeUndefined();
    expect(sqlState('23505')).toBeUndefined();
  });

  it('maps a ledger SQLSTATE to its business code, on the cause too, and rethrows anything else', () => {
    expect(() => rethrowLedgerError(new Error('Failed query', { cause: driverError('CB001') }))).toThrow(
      expect.objectContaining({ bizCode: ErrorCode.INSUFFICIENT_BALANCE }),
    );
    const fault = driverError('23505');
    expect(() => rethrowLedgerError(fault)).toThrow(fault);
  });
});
