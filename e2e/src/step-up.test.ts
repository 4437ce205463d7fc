import { ErrorCode, errorMessages } from '@coffer/contract/errors';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFor } from './authenticator';
import { connectBrowser, createUser, LANGS, newLocalhostPhone, newPhone, type TestUser, t, text, waitForPath } from './app';
import { enableTwoFactor, fund, must, noPopUp, openPage, typeAmount } from './wallet-support';

const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** Turns two-factor on through the API (the enrolment page has its own test); answers the secret. */
async function enrol(user: TestUser): Promise<string> {
  const { secret } = await must<{ secret: string }>('/2fa/setup', { token: user.token, body: {} });
  await enableTwoFactor(user, secret);
  return secret;
}

/**
 * The step-up policy on the phone (decision 033): with two-factor on, a transfer asks for the
 * authenticator code inline under the form, as /withdraw does; swaps ask too once the user
 * turned that on in /settings/2fa.
 */
describe.each(LANGS)('step-up: the second factor inline on money forms (%s)', (lang) => {
  let browser: Browser;
  let sender: TestUser;
  let receiver: TestUser;
  let secret: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await connectBrowser();
    [sender, receiver] = await Promise.all([createUser(lang), createUser(lang)]);
    await fund(sender.email, '100');
    secret = await enrol(sender);
    context = await newPhone(browser, lang, { token: sender.token });
    page = await openPage(context);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('a transfer asks for the code under the form: missing, then wrong (said by the server), then right', async () => {
    await page.goto('/transfer');
    await page.fill('input[name=recipient-email]', receiver.email);
    await page.getByTestId('recipient-check').click();
    await page.getByTestId('recipient-preview').waitFor();
    await expect.poll(() => text(page.getByTestId('transfer-available'))).toContain('100');
    await typeAmount(page, '7.5');
    const code = page.getByTestId('transfer-totp').locator('input');
    await code.waitFor();

    await page.getByTestId('transfer-next').click();
    expect(await text(page.getByTestId('transfer-totp-error'))).toBe(t(lang, 'twoFactor.codeRequired'));
    expect(await page.getByTestId('transfer-confirm').count()).toBe(0);
    expect(await code.getAttribute('aria-invalid')).toBe('true');

    await code.fill(wrongCodeFor(codeFor(secret)));
    await page.getByTestId('transfer-next').click();
    await page.getByTestId('transfer-submit').click();
    await expect.poll(() => text(page.getByTestId('transfer-totp-error'))).toBe(errorMessages[lang][ErrorCode.WRONG_SECOND_FACTOR]);
    await noPopUp(page);

    // one code, computed once: the 30-second step may turn between two computations
    const right = codeFor(secret);
    await code.fill(right);
    await page.getByTestId('transfer-next').click();
    const request = page.waitForRequest((r) => r.url().endsWith('/api/transfer/transferByEmail'));
    await page.getByTestId('transfer-submit').click();
    expect((await request).postDataJSON()).toMatchObject({ email: receiver.email, amount: '7.5', totp: right });
    await page.getByTestId('transfer-success').waitFor();
    const balances = await must<{ code: string; available: string }[]>('/currency/balances', { token: receiver.token });
    expect(balances.find((b) => b.code === 'USDT')?.available).toBe('7.5');
  });

  it('swaps ask for the code once the user turns that on in the two-factor settings', async () => {
    await page.goto('/swap');
    await page.getByTestId('swap-quote').waitFor();
    expect(await page.getByTestId('swap-totp').count()).toBe(0);

    await page.goto('/settings/2fa');
    const toggle = page.getByTestId('2fa-swaps-switch');
    await toggle.click();
    await expect
      .poll(async () => (await must<{ stepUpSwaps: boolean }>('/getCurrentUser', { token: sender.token })).stepUpSwaps)
      .toBe(true);
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');

    await page.goto('/swap');
    await typeAmount(page, '10');
    const code = page.getByTestId('swap-totp').locator('input');
    await code.waitFor();
    await page.getByTestId('swap-quote').click();
    expect(await text(page.getByTestId('swap-totp-error'))).toBe(t(lang, 'twoFactor.codeRequired'));

    // One code, read once: a 30 s step can end between typing it and checking what was sent.
    const typed = codeFor(secret, 1);
    await code.fill(typed);
    await page.getByTestId('swap-quote').click();
    const request = page.waitForRequest((r) => r.url().endsWith('/api/swap/apply'));
    await page.getByTestId('swap-confirm').click();
    expect((await request).postDataJSON()).toMatchObject({ totp: typed });
    await page.getByTestId('swap-success').waitFor();
  });
});

/** A passkey satisfies the policy too: the transfer is confirmed with the phone's screen lock. */
describe.each(LANGS)('step-up: a passkey instead of the code (%s)', (lang) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectBrowser();
  });
  afterAll(() => browser?.close());

  it('a transfer with two-factor on goes out confirmed by a passkey (Chromium virtual authenticator)', async () => {
    const [sender, receiver] = await Promise.all([createUser(lang), createUser(lang)]);
    await fund(sender.email, '50');
    const context = await newLocalhostPhone(browser, lang, sender.token);
    const page = await context.newPage();
    try {
      const cdp = await context.newCDPSession(page);
      await cdp.send('WebAuthn.enable');
      await cdp.send('WebAuthn.addVirtualAuthenticator', {
        options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
      });
      // A passkey first (the password confirms it), then two-factor on.
      await page.goto('/settings/passkeys');
      await page.getByTestId('passkey-password').locator('input').fill(sender.password);
      await page.getByTestId('passkey-add').click();
      await page.getByTestId('passkey-item').first().waitFor();
      await enrol(sender);

      await page.goto('/transfer');
      await waitForPath(page, '/transfer');
      await page.fill('input[name=recipient-email]', receiver.email);
      await page.getByTestId('recipient-check').click();
      await page.getByTestId('recipient-preview').waitFor();
      await expect.poll(() => text(page.getByTestId('transfer-available'))).toContain('50');
      await typeAmount(page, '5');
      await page.getByTestId('transfer-totp-switch').click();
      await page.getByTestId('transfer-totp-passkey').waitFor();
      await page.getByTestId('transfer-next').click();
      const request = page.waitForRequest((r) => r.url().endsWith('/api/transfer/transferByEmail'));
      await page.getByTestId('transfer-submit').click();
      const body = (await request).postDataJSON() as { stepUpToken?: string; totp?: string };
      expect(body.stepUpToken).toMatch(/^[A-Za-z0-9_-]{16,}$/);
      expect(body.totp).toBeUndefined();
      await page.getByTestId('transfer-success').waitFor();
      const balances = await must<{ code: string; available: string }[]>('/currency/balances', { token: receiver.token });
      expect(balances.find((b) => b.code === 'USDT')?.available).toBe('5');
    } finally {
      await context.close();
    }
  });
});
