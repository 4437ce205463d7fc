import type { TwoFactorSetupData } from '@coffer/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { client } from '../../test/users.ts';
import { signUp } from '../auth/test-helpers.ts';
import { totpFor } from './totp.ts';

/** Turning two-factor on needs the password; an owner who lost the factor has an operator-assisted reset. */
describe('two-factor: enabling needs the password; the operator-assisted reset', () => {
  let t: TestApp;
  let call: ReturnType<typeof client>;
  const password = 'correct horse battery staple 42';

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT: 'off' });
    call = client(t);
  });
  afterAll(() => t.close());

  const newEmail = () => `rc-${Math.random().toString(36).slice(2, 8)}@example.com`;

  it("a session alone cannot turn two-factor on with the thief's authenticator (2013)", async () => {
    const token = await signUp(t, newEmail(), password);
    const setup = await call<TwoFactorSetupData>('POST', '/api/2fa/setup', { token });
    const code = totpFor(setup.data.secret, 'x').generate();
    expect((await call('POST', '/api/2fa/enable', { token, body: { code } })).code).toBe(2013);
  });
});
