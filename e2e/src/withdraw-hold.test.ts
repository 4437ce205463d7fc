import type { Network } from '@coffer/contract/chain';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFor } from './authenticator';
import { connectBrowser, createUser, LANGS, newPhone, t, text, waitForPath, waitForToast } from './app';
import { call, enableTwoFactor, feeQuoteId, must, openPage } from './wallet-support';

/** A browser the account has never signed in from: the server sees a new device. */
const OTHER_DEVICE = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/**
 * The withdrawal hold after a credential change (docs/security.md, "Withdrawal hold"): a
 * sign-in from a new device opens it, and /withdraw shows the time left and the reason, with
 * Next disabled; without two-step verification the user is told to wait it out.
 */
describe.each(LANGS)('withdrawal hold (%s)', (lang) => {
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    browser = await connectBrowser();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('shows the time left and why after a sign-in from a new device', async () => {
    const user = await createUser(lang);
    const elsewhere = await call<{ token: string }>('/login', {
      lang,
      headers: { 'user-agent': OTHER_DEVICE },
      body: { email: user.email, password: user.password },
    });
    expect(elsewhere.code).toBe(0);

    context = await newPhone(browser, lang, { token: user.token });
    const page = await openPage(context);
    await page.goto('/withdraw');
    await waitForPath(page, '/withdraw');
    await page.getByTestId('withdraw-hold').waitFor();
    expect(await text(page.getByTestId('withdraw-hold'))).toContain(t(lang, 'withdraw.hold.title'));
    const fullDay = [t(lang, 'withdraw.hold.left', { hours: 24, minutes: 0 }), t(lang, 'withdraw.hold.left', { hours: 23, minutes: 59 })];
    expect(fullDay).toContain(await text(page.getByTestId('withdraw-hold-left')));
    expect(await text(page.getByTestId('withdraw-hold-reason'))).toBe(
      t(lang, 'withdraw.hold.reason', { reason: t(lang, 'withdraw.hold.reasons.new_device') }),
    );
    expect(await text(page.getByTestId('withdraw-hold-wait'))).toBe(t(lang, 'withdraw.hold.mustWait'));
    expect(await page.getByTestId('withdraw-hold-cancel').count()).toBe(0);
    expect(await page.getByTestId('withdraw-next').isDisabled()).toBe(true);

    // The server says the same when asked directly: 3014 with the time left.
    const eth = (await must<Network[]>('/currency/onchain')).find((n) => n.code === 'ETH')!;
    const refused = await call('/withdraw/apply', {
      lang,
      token: user.token,
      body: {
        currencyId: eth.currencyId,
        networkId: eth.id,
        address: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
        amount: '1',
        code: '123456',
        quoteId: await feeQuoteId(user.token, eth.id),
      },
    });
    expect(refused.code).toBe(3014);
    await context.close();
  });

  it('ends the hold with an authenticator code when two-step verification is on', async () => {
    const user = await createUser(lang);
    const setup = await must<{ secret: string }>('/2fa/setup', { token: user.token, body: {} });
    const codeAt = (steps: number) => codeFor(setup.secret, steps);
    await enableTwoFactor(user, setup.secret);
    const first = await must<{ secondFactor: { challenge: string } }>('/login', {
      lang,
      headers: { 'user-agent': OTHER_DEVICE },
      body: { email: user.email, password: user.password },
    });
    await must('/login/2fa', {
      lang,
      headers: { 'user-agent': OTHER_DEVICE },
      body: { challenge: first.secondFactor.challenge, code: codeAt(0) },
    });

    context = await newPhone(browser, lang, { token: user.token });
    const page = await openPage(context);
    await page.goto('/withdraw');
    await page.getByTestId('withdraw-hold').waitFor();
    expect(await page.getByTestId('withdraw-hold-wait').count()).toBe(0);
    await page.getByTestId('withdraw-hold-code').locator('input').fill('000000');
    await page.getByTestId('withdraw-hold-cancel').click();
    await expect.poll(() => page.getByTestId('withdraw-hold-error').count()).toBe(1);
    await page.getByTestId('withdraw-hold-code').locator('input').fill(codeAt(1));
    await page.getByTestId('withdraw-hold-cancel').click();
    await waitForToast(page, t(lang, 'withdraw.hold.ended'));
    await page.getByTestId('withdraw-hold').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('withdraw-next').isDisabled()).toBe(false);
  });
});
