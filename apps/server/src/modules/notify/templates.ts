import type { Locale } from '@coffer/contract';

/** The words of a notice or mail about a money event, in both languages (docs/decisions/054). */
export type MoneyEvent =
  | { kind: 'deposit_credited'; amount: string; code: string; network: string }
  | { kind: 'withdraw_completed'; amount: string; code: string; network: string }
  | {
      kind: 'withdraw_returned';
      amount: string;
      /** what came back to the balance: the amount and the fee (the record's head shows the same) */
      returned: string;
      code: string;
      network: string;
      status: 'failed' | 'cancelled' | 'rejected';
    }
  | { kind: 'transfer_received'; amount: string; code: string; from: string };

export interface Words {
  title: string;
  /** Markdown: a notice's body, and the mail's text. */
  body: string;
}

const returnedWhy: Record<Locale, Record<'failed' | 'cancelled' | 'rejected', string>> = {
  'zh-CN': { failed: '链上发送失败', cancelled: '提现已取消', rejected: '提现未通过审核' },
  'en-US': { failed: 'it could not be sent on chain', cancelled: 'it was cancelled', rejected: 'it was not approved' },
};

/**
 * Amounts are the exact decimal string (trailing zeros trimmed), never rounded: a notice is a
 * record of what moved, as a record page shows it (docs/decisions/019).
 */
export function moneyWords(locale: Locale, e: MoneyEvent): Words {
  const sum = `${e.amount} ${e.code}`;
  if (locale === 'zh-CN') {
    switch (e.kind) {
      case 'deposit_credited':
        return { title: `充值到账 ${sum}`, body: `您的充值 **${sum}**（${e.network} 网络）已到账，可在资产中查看。` };
      case 'withdraw_completed':
        return { title: `提现成功 ${sum}`, body: `您的提现 **${sum}**（${e.network} 网络）已完成。` };
      case 'withdraw_returned':
        return {
          title: `提现退回 ${e.returned} ${e.code}`,
          body: `您的提现 **${sum}**（${e.network} 网络）未完成：${returnedWhy[locale][e.status]}。金额与手续费共 **${e.returned} ${e.code}** 已退回可用余额。`,
        };
      case 'transfer_received':
        return { title: `收到转账 ${sum}`, body: `您收到来自 ${e.from} 的转账 **${sum}**。` };
    }
  }
  switch (e.kind) {
    case 'deposit_credited':
      return { title: `Deposit credited: ${sum}`, body: `Your deposit of **${sum}** (${e.network} network) is credited to your balance.` };
    case 'withdraw_completed':
      return { title: `Withdrawal completed: ${sum}`, body: `Your withdrawal of **${sum}** (${e.network} network) is complete.` };
    case 'withdraw_returned':
      return {
        title: `Withdrawal returned: ${e.returned} ${e.code}`,
        body: `Your withdrawal of **${sum}** (${e.network} network) did not go through: ${returnedWhy[locale][e.status]}. The amount and the fee, **${e.returned} ${e.code}**, are back in your available balance.`,
      };
    case 'transfer_received':
      return { title: `Transfer received: ${sum}`, body: `You received **${sum}** from ${e.from}.` };
  }
}

/** Short words for the security events that also make a notice (their mails are modules/security's). */
export function securityWords(locale: Locale, kind: 'new_sign_in' | 'two_factor_enabled', whereText: string): Words {
  // the device name comes from the User-Agent header: shown as text, never as Markdown
  const where = escapeMarkdown(whereText);
  const zh = locale === 'zh-CN';
  if (kind === 'new_sign_in') {
    return zh
      ? { title: '新设备登录', body: `您的账户刚在新设备上登录。${where}\n\n如果不是您本人操作，请立即修改密码。` }
      : {
          title: 'New sign-in',
          body: `Your account was just signed in from a new device. ${where}\n\nIf this was not you, change your password now.`,
        };
  }
  return zh
    ? { title: '两步验证已开启', body: `您的账户已开启两步验证。${where}` }
    : { title: 'Two-step verification on', body: `Two-step verification is now on for your account. ${where}` };
}

/**
 * Text from elsewhere (a masked e-mail holds `***`, a device name comes from a header) shown
 * literally inside Markdown: emphasis, code, links and HTML characters are escaped; the text
 * never starts a line, so block markers need nothing.
 */
export const escapeMarkdown = (s: string) => s.replace(/[\\`*_[\]<>~|]/g, (c) => `\\${c}`);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Markdown's escapes (`\\*`) undone: what the text shows. */
const unescapeMarkdown = (s: string) => s.replace(/\\(.)/g, '$1');

/** A notice's first paragraph as plain text (a push shows one line). */
export const plainFirstLine = (body: string) => unescapeMarkdown(body.split('\n')[0]!.replace(/\*\*(.+?)\*\*/g, '$1'));

/** A mail from a notice's words: the text as written, the HTML with **bold** kept. */
export function wordsMail(locale: Locale, w: Words): { subject: string; text: string; html: string } {
  const plain = unescapeMarkdown(w.body.replace(/\*\*(.+?)\*\*/g, '$1'));
  const paragraphs = w.body.split(/\n\n+/).map((p) => `<p>${unescapeMarkdown(escapeHtml(p).replace(/\*\*(.+?)\*\*/g, '<b>$1</b>'))}</p>`);
  return {
    subject: `Coffer${locale === 'zh-CN' ? '：' : ': '}${w.title}`,
    text: `${plain}\n`,
    html: `<!doctype html><html lang="${locale}"><body style="font-family:sans-serif;line-height:1.5">\n${paragraphs.join('\n')}\n</body></html>`,
  };
}
