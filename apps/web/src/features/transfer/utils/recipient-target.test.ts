import { describe, expect, it } from 'vitest';
import { targetOf } from './recipient-target';

describe('targetOf', () => {
  it('takes a well-formed e-mail, trimmed', () => {
    expect(targetOf('email', '  bob@example.com ')).toEqual({ email: 'bob@example.com' });
  });

  it('refuses a malformed e-mail, so no lookup is sent', () => {
    expect(targetOf('email', 'bob@')).toBeNull();
    expect(targetOf('email', '')).toBeNull();
  });

  it('takes a UID of digits without a leading zero, up to 15 of them', () => {
    expect(targetOf('uid', '42')).toEqual({ uid: 42 });
    expect(targetOf('uid', '123456789012345')).toEqual({ uid: 123456789012345 });
  });

  it('refuses a UID with a leading zero, a sign, letters or 16 digits', () => {
    for (const text of ['042', '-1', '1e3', '12a', '1234567890123456']) expect(targetOf('uid', text)).toBeNull();
  });
});
