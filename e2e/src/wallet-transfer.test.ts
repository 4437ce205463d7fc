import { ErrorCode, errorMessages } from '@coffer/contract/errors';
import { maskEmail } from '@coffer/contract/ledger';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBrowser, createUser, LANGS, newPhone, type TestUser, t, text, waitForPath } from './app';
import { apiTransfer, clearAmount, fund, must, noPopUp, openPage, typeAmount } from './wallet-support';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe.each(LANGS)('wallet: transfer (%s)', (lang) => {
  let browser: Browser;
  let sender: TestUser;
  let receiver: TestUser;
  let senderContext: BrowserContext;
  let page: Page;
  const memo = lang === 'zh-CN' ? '午饭钱' : 'lunch money';

  beforeAll(async () => {
    browser = await connectBrowser();
    [sender, receiver] = await Promise.all([
      createUser(lang, lang === 'zh-CN' ? '小红' : 'Alice'),
      createUser(lang, lang === 'zh-CN' ? '小刚' : 'Bob'),
    ]);
    await fund(sender.email, '1000');
    senderContext = await newPhone(browser, lang, { token: sender.token });
    page = await openPage(senderContext);
  });

  afterAll(async () => {
    await senderContext?.close();
    await browser?.close();
  });

  it('shows the funded balance and the total value on home', async () => {
    await page.goto('/');
    await expect.poll(() => text(page.getByTestId('balance-USDT-total'))).toBe('1,000');
    await expect.poll(() => text(page.getByTestId('home-total'))).toBe('≈ 1,000');
    await page.getByTestId('balance-ETH').waitFor();
  });

  it('previews the recipient by e-mail and by UID', async () => {
    await page.getByTestId('home-action-transfer').click();
    await waitForPath(page, '/transfer');
    await page.fill('input[name=recipient-email]', receiver.email);
    await page.getByTestId('recipient-check').click();
    await expect.poll(() => text(page.getByTestId('recipient-email'))).toBe(maskEmail(receiver.email));
    expect(await text(page.getByTestId('recipient-nickname'))).toBe(receiver.nickname);
    // The full address of the recipient never appears on screen.
    expect(await page.getByText(receiver.email).count()).toBe(0);

    const { uid } = await must<{ uid: number }>('/getCurrentUser', { token: receiver.token });
    await page.getByRole('tab', { name: t(lang, 'transfer.byUid') }).click();
    await page.fill('input[name=recipient-uid]', String(uid));
    await page.getByTestId('recipient-check').click();
    await expect.poll(() => text(page.getByTestId('recipient-nickname'))).toBe(receiver.nickname);
    await page.getByRole('tab', { name: t(lang, 'transfer.byEmail') }).click();
  });

  it('checks the amount against the balance before sending', async () => {
    await page.fill('input[name=recipient-email]', receiver.email);
    await page.getByTestId('recipient-check').click();
    await page.getByTestId('recipient-preview').waitFor();
    await expect.poll(() => text(page.getByTestId('transfer-available'))).toContain('1,000');
    await typeAmount(page, '5000');
    await page.getByTestId('transfer-next').click();
    expect(await text(page.getByTestId('amount-error'))).toBe(t(lang, 'wallet.amountErrors.balance', { available: '1,000', code: 'USDT' }));
    expect(await page.getByTestId('transfer-confirm').count()).toBe(0);
    await clearAmount(page, 4);
  });

  it('sends after the confirmation step, with one Idempotency-Key per submit', async () => {
    await typeAmount(page, '12.5');
    await page.fill('textarea[name=memo]', memo);
    await page.getByTestId('transfer-next').click();
    const confirm = page.getByTestId('transfer-confirm');
    await confirm.waitFor();
    expect(await text(page.getByTestId('confirm-amount'))).toBe('12.5 USDT');
    expect(await text(page.getByTestId('confirm-memo'))).toBe(memo);
    expect(await text(confirm.getByTestId('recipient-email'))).toBe(maskEmail(receiver.email));

    const request = page.waitForRequest((r) => r.url().endsWith('/api/transfer/transferByEmail'));
    await page.getByTestId('transfer-submit').click();
    const sent = await request;
    expect(sent.headers()['idempotency-key']).toMatch(UUID_RE);
    expect(sent.postDataJSON()).toMatchObject({ email: receiver.email, amount: '12.5', memo });

    await page.getByTestId('transfer-success').waitFor();
    await page.getByTestId('transfer-view-bill').click();
    await page.waitForURL(/\/bill\/detail\?type=transfer&id=\d+$/);
    await expect.poll(() => text(page.getByTestId('detail-amount'))).toBe('-12.5 USDT');
    expect(await text(page.getByTestId('detail-memo'))).toContain(memo);
  });

  it("shows the transfer in the receiver's bills and statement", async () => {
    const context = await newPhone(browser, lang, { token: receiver.token });
    const other = await openPage(context);
    try {
      await other.goto('/bill?type=transfer');
      const row = other.locator('[data-testid^=transfer-row-]').first();
      await row.waitFor();
      expect(await text(row)).toContain(t(lang, 'bill.receivedFrom', { name: sender.nickname }));
      expect(await text(row)).toContain('+12.5 USDT');
      await row.click();
      await other.waitForURL(/\/bill\/detail\?type=transfer&id=\d+$/);
      await expect.poll(() => text(other.getByTestId('detail-amount'))).toBe('+12.5 USDT');
      expect(await text(other.getByTestId('detail-counterparty'))).toContain(maskEmail(sender.email));

      await other.goto('/bill/all');
      const line = other.locator('[data-testid^=turnover-row-]').first();
      await line.waitFor();
      expect(await text(line.getByTestId('turnover-type'))).toBe(t(lang, 'statement.types.transfer_in'));
      expect(await text(line)).toContain('+12.5 USDT');
    } finally {
      await context.close();
    }
  });

  // Decision 021: a refusal about a field is said next to it; a toast is for what has none.
  it('puts refusals about the recipient and the amount next to their fields, not in a pop-up', async () => {
    await page.goto('/transfer');
    const recipient = page.getByRole('textbox', { name: t(lang, 'transfer.recipient') });
    const recipientCard = page.locator('section', { has: recipient });
    await recipient.fill(`nobody-${Date.now()}@example.com`);
    await page.getByTestId('recipient-check').click();
    await recipientCard.getByText(errorMessages[lang][ErrorCode.RECIPIENT_NOT_FOUND]).waitFor();
    // Tied to the field, so a screen reader reads it with it.
    expect(await recipient.getAttribute('aria-invalid')).toBe('true');
    expect(await recipient.getAttribute('aria-describedby')).toBe('recipient-error');
    await noPopUp(page);

    await recipient.fill(sender.email);
    await page.getByTestId('recipient-check').click();
    await recipientCard.getByText(errorMessages[lang][ErrorCode.CANNOT_SEND_TO_SELF]).waitFor();
    await noPopUp(page);

    await recipient.fill(receiver.email);
    await page.getByTestId('recipient-check').click();
    await page.getByTestId('recipient-preview').waitFor();
    await expect.poll(() => text(page.getByTestId('transfer-available'))).not.toContain('--');
    // The balance is spent elsewhere after the page read it: only the server can refuse.
    const balances = await must<{ code: string; available: string }[]>('/currency/balances', { token: sender.token });
    const left = balances.find((b) => b.code === 'USDT')!.available;
    await apiTransfer(sender, receiver.email, left);
    await typeAmount(page, '1');
    await page.getByTestId('transfer-next').click();
    await page.getByTestId('transfer-submit').click();
    await page.getByTestId('transfer-confirm').waitFor({ state: 'detached' });
    const amountField = page.getByRole('button', { name: new RegExp(`^${t(lang, 'transfer.amount')}: `) });
    const amountCard = page.locator('section', { has: amountField });
    const refusal = amountCard.getByText(errorMessages[lang][ErrorCode.INSUFFICIENT_BALANCE], { exact: true });
    await refusal.waitFor();
    expect(await amountField.getAttribute('aria-invalid')).toBe('true');
    expect(await amountField.getAttribute('aria-describedby')).toBe(await refusal.getAttribute('id'));
    await noPopUp(page);
    // Changing the amount clears the server's word (the local check speaks again).
    await clearAmount(page, 1);
    await expect.poll(() => refusal.count()).toBe(0);
  });
});
