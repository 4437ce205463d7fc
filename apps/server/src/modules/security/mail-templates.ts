import type { HoldReason, Locale, SecurityEventKind } from '@coffer/contract';

export interface SecurityMail {
  subject: string;
  text: string;
  html: string;
}

export interface SecurityEventDetail {
  device?: string | null;
  ip?: string | null;
  at: Date;
  /** For withdrawal_hold: why the hold opened and when it ends. */
  hold?: { reason: HoldReason; endsAt: Date };
  /** For address_book_added / _removed: the entry (usableAt only when added). */
  book?: { label: string; address: string; network: string; usableAt?: Date };
}

const utc = (d: Date) => `${d.toISOString().replace('T', ' ').slice(0, 19)} UTC`;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Why a hold opened, as the hold mail says it. */
const copyHoldReason: Record<Locale, Record<HoldReason, string>> = {
  'zh-CN': {
    password_reset: '登录密码已重置',
    password_changed: '登录密码已修改',
    two_factor_disabled: '两步验证已关闭',
    passkey_added: '添加了通行密钥',
    passkey_removed: '删除了通行密钥',
    new_device: '新设备登录',
  },
  'en-US': {
    password_reset: 'the password was reset',
    password_changed: 'the password was changed',
    two_factor_disabled: 'two-step verification was turned off',
    passkey_added: 'a passkey was added',
    passkey_removed: 'a passkey was removed',
    new_device: 'a sign-in from a new device',
  },
};

const copy: Record<
  Locale,
  {
    subject: Record<SecurityEventKind, string>;
    what: Record<SecurityEventKind, string>;
    where: (d: SecurityEventDetail) => string;
    advice: string;
    hold: (h: NonNullable<SecurityEventDetail['hold']>) => string;
    book: (b: NonNullable<SecurityEventDetail['book']>) => string;
  }
> = {
  'zh-CN': {
    subject: {
      new_sign_in: 'Coffer：新设备登录提醒',
      password_reset: 'Coffer：登录密码已重置',
      password_changed: 'Coffer：登录密码已修改',
      two_factor_enabled: 'Coffer：两步验证已开启',
      two_factor_disabled: 'Coffer：两步验证已关闭',
      passkey_added: 'Coffer：已添加通行密钥',
      passkey_removed: 'Coffer：已删除通行密钥',
      second_factor_wrong: 'Coffer：有人知道您的密码',
      two_factor_reset_opened: 'Coffer：客服已为您的账户发起两步验证重置',
      two_factor_reset_cancelled: 'Coffer：两步验证重置已取消',
      two_factor_reset_completed: 'Coffer：两步验证已被重置',
      withdrawal_hold: 'Coffer：提现已暂缓',
      address_book_added: 'Coffer：地址簿新增了提现地址',
      address_book_removed: 'Coffer：地址簿删除了提现地址',
    },
    what: {
      new_sign_in: '您的 Coffer 账户刚刚在一台新的设备或网络上登录。',
      password_reset: '您的 Coffer 账户的登录密码刚刚通过邮箱验证码重置，所有已登录的设备均已退出。',
      password_changed: '您的 Coffer 账户的登录密码刚刚被修改。',
      two_factor_enabled: '您的 Coffer 账户刚刚开启了两步验证。',
      two_factor_disabled: '您的 Coffer 账户刚刚关闭了两步验证。',
      passkey_added: '您的 Coffer 账户刚刚添加了一个通行密钥。',
      passkey_removed: '您的 Coffer 账户刚刚删除了一个通行密钥。',
      second_factor_wrong:
        '有人刚刚用正确的密码登录您的 Coffer 账户，但两步验证（动态码、恢复码或通行密钥）没有通过，所以没有登录成功。这说明对方知道您的密码。',
      two_factor_reset_opened:
        '客服刚刚为您的 Coffer 账户发起了两步验证重置：等待期结束后，身份验证器和恢复码将被移除。等待期内您可以在「设置 › 账户安全」中取消，剩余时间也显示在那里。如果您没有联系客服，请立即取消并修改密码。',
      two_factor_reset_cancelled: '您的 Coffer 账户的两步验证重置已取消，身份验证器和恢复码保持不变。',
      two_factor_reset_completed: '您的 Coffer 账户的两步验证已按客服重置移除（身份验证器和恢复码）。登录后请重新开启两步验证。',
      withdrawal_hold: '为保护您的资产，您的 Coffer 账户在安全设置变更后暂缓提现。',
      address_book_added: '您的 Coffer 地址簿刚刚新增了一个提现地址。',
      address_book_removed: '您的 Coffer 地址簿刚刚删除了一个提现地址。',
    },
    where: (d) =>
      `时间：${d.at.toISOString().replace('T', ' ').slice(0, 19)} UTC` +
      (d.device ? `；设备：${d.device}` : '') +
      (d.ip ? `；IP：${d.ip}` : ''),
    advice: '如果是您本人操作，无需处理。如果不是，请立即重置密码，并在「设置 › 账户安全」中退出其他设备。',
    hold: (h) =>
      `原因：${copyHoldReason['zh-CN'][h.reason]}。提现将暂缓至 ${utc(h.endsAt)}；` +
      '开启了两步验证的用户可在「提现」页面用动态码或恢复码提前解除。',
    book: (b) => `名称：${b.label}；网络：${b.network}；地址：${b.address}${b.usableAt ? `；可用时间：${utc(b.usableAt)}` : ''}`,
  },
  'en-US': {
    subject: {
      new_sign_in: 'Coffer: new sign-in to your account',
      password_reset: 'Coffer: your password was reset',
      password_changed: 'Coffer: your password was changed',
      two_factor_enabled: 'Coffer: two-step verification turned on',
      two_factor_disabled: 'Coffer: two-step verification turned off',
      passkey_added: 'Coffer: a passkey was added',
      passkey_removed: 'Coffer: a passkey was removed',
      second_factor_wrong: 'Coffer: someone knows your password',
      two_factor_reset_opened: 'Coffer: support opened a two-step verification reset',
      two_factor_reset_cancelled: 'Coffer: the two-step verification reset was cancelled',
      two_factor_reset_completed: 'Coffer: two-step verification was reset',
      withdrawal_hold: 'Coffer: withdrawals are on hold',
      address_book_added: 'Coffer: a withdrawal address was added to your address book',
      address_book_removed: 'Coffer: a withdrawal address was removed from your address book',
    },
    what: {
      new_sign_in: 'Your Coffer account was just signed in to from a new device or network.',
      password_reset: 'The password of your Coffer account was just reset with an e-mail code; every signed-in device was signed out.',
      password_changed: 'The password of your Coffer account was just changed.',
      two_factor_enabled: 'Two-step verification was just turned on for your Coffer account.',
      two_factor_disabled: 'Two-step verification was just turned off for your Coffer account.',
      passkey_added: 'A passkey was just added to your Coffer account.',
      passkey_removed: 'A passkey was just removed from your Coffer account.',
      second_factor_wrong:
        'Your Coffer password was entered correctly just now, but the second step (authenticator code, recovery code or passkey) failed, so nobody was signed in. Whoever tried knows your password.',
      two_factor_reset_opened:
        'Support just opened a two-step verification reset for your Coffer account: when the waiting period ends, the authenticator and recovery codes are removed. Until then you can cancel it in Settings › Security, where the time left is shown. If you did not contact support, cancel it now and change your password.',
      two_factor_reset_cancelled:
        'The two-step verification reset of your Coffer account was cancelled; the authenticator and recovery codes stay.',
      two_factor_reset_completed:
        'Two-step verification of your Coffer account was removed by the support reset (authenticator and recovery codes). Turn it on again once signed in.',
      withdrawal_hold: 'To protect your funds, withdrawals from your Coffer account wait after a security change.',
      address_book_added: 'A withdrawal address was just added to your Coffer address book.',
      address_book_removed: 'A withdrawal address was just removed from your Coffer address book.',
    },
    where: (d) =>
      `Time: ${d.at.toISOString().replace('T', ' ').slice(0, 19)} UTC` +
      (d.device ? `; device: ${d.device}` : '') +
      (d.ip ? `; IP: ${d.ip}` : ''),
    advice:
      'If this was you, there is nothing to do. If it was not, reset your password now and sign out the other devices in Settings › Security.',
    hold: (h) =>
      `Reason: ${copyHoldReason['en-US'][h.reason]}. Withdrawals wait until ${utc(h.endsAt)}; ` +
      'with two-step verification on, you can end the hold early on the Withdraw page with an authenticator or recovery code.',
    book: (b) => `Label: ${b.label}; network: ${b.network}; address: ${b.address}${b.usableAt ? `; usable from ${utc(b.usableAt)}` : ''}`,
  },
};

/** When, on which device and from where, as the mail says it (a notice repeats it). */
export function securityEventWhere(locale: Locale, detail: SecurityEventDetail): string {
  return copy[locale].where(detail);
}

export function securityEventMail(locale: Locale, kind: SecurityEventKind, detail: SecurityEventDetail): SecurityMail {
  const c = copy[locale];
  const paragraphs = [
    c.what[kind],
    ...(detail.hold ? [c.hold(detail.hold)] : []),
    ...(detail.book ? [c.book(detail.book)] : []),
    c.where(detail),
    c.advice,
  ];
  return {
    subject: c.subject[kind],
    text: `${paragraphs.join('\n\n')}\n`,
    html: `<!doctype html><html lang="${locale}"><body style="font-family:sans-serif;line-height:1.5">
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
</body></html>`,
  };
}

const phraseLabel: Record<Locale, string> = {
  'zh-CN': '您的防钓鱼码',
  'en-US': 'Your anti-phishing phrase',
};

/** The line every mail to a user with a phrase starts with (text and html). */
export function antiPhishingLine(locale: Locale, phrase: string): { text: string; html: string } {
  const sep = locale === 'zh-CN' ? '：' : ': ';
  return {
    text: `${phraseLabel[locale]}${sep}${phrase}`,
    html: `<p style="padding:8px 12px;border:1px solid #ccc;border-radius:6px">${escapeHtml(phraseLabel[locale])}${sep}<b>${escapeHtml(phrase)}</b></p>`,
  };
}
