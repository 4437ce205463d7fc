import type { AlertKind, Locale } from '@coffer/contract';

/** What a mail needs to say about one alert: nothing secret (no address, no user, no key). */
export interface AlertMailFacts {
  kind: AlertKind;
  subjectId: number;
  networkName: string | null;
  facts: Record<string, string>;
  since: Date;
}

const utc = (d: Date) => `${d.toISOString().replace('T', ' ').slice(0, 19)} UTC`;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const WAIT_REASON: Record<Locale, Record<string, string>> = {
  'zh-CN': {
    fees_high: '网络手续费高于上限',
    hot_wallet_short: '热钱包余额不足',
    node_unavailable: '区块链节点不可用',
    fee_bumps_exhausted: '提价次数已用完',
  },
  'en-US': {
    fees_high: 'network fees above the cap',
    hot_wallet_short: 'the hot wallet is short',
    node_unavailable: 'the chain node is unavailable',
    fee_bumps_exhausted: 'fee bumps used up',
  },
};

interface Copy {
  subject: (a: AlertMailFacts) => string;
  /** what and where, then what to do */
  body: (a: AlertMailFacts, where: string) => [string, string];
  since: string;
  where: (a: AlertMailFacts) => string;
  footer: string;
}

const f = (a: AlertMailFacts, k: string) => a.facts[k] ?? '?';

const COPY: Record<Locale, Copy> = {
  'zh-CN': {
    subject: (a) =>
      ({
        incident_open: `Coffer 告警：链上事件 #${a.subjectId} 未处理`,
        reconcile_drift: `Coffer 告警：${a.networkName ?? ''} 对账不平`,
        hot_below_floor: `Coffer 告警：${a.networkName ?? ''} 热钱包低于下限`,
        payout_waiting: `Coffer 告警：提现 #${a.subjectId} 出款等待过久`,
        review_too_long: `Coffer 告警：提现 #${a.subjectId} 审核等待过久`,
      })[a.kind],
    where: (a) => (a.networkName ? `网络：${a.networkName}` : '网络：整条链'),
    since: '开始时间',
    body: (a, where) =>
      ({
        incident_open: [
          `链上事件 #${a.subjectId}（${f(a, 'incidentKind')}）仍未处理，${where}。该网络的出款已冻结。`,
          '请在运营后台的「提现」页面查看事件详情，核实链上情况后处理并关闭事件。',
        ] as [string, string],
        reconcile_drift: [
          `对账不平：链上持有与账本应付相差 ${f(a, 'drift')} ${f(a, 'code')}，${where}。该网络的出款已冻结。`,
          '请在运营后台查看对账结果，找出差额原因（漏记的充值、未入账的手续费等），处理后关闭对账事件。',
        ] as [string, string],
        hot_below_floor: [
          `热钱包余额低于下限 ${f(a, 'floor')} ${f(a, 'code')}，${where}。出款可能因余额不足而等待。`,
          `请从冷钱包向热钱包转入至少 ${f(a, 'short')} ${f(a, 'code')}，并在运营后台的「网络」页面登记这笔注资。`,
        ] as [string, string],
        payout_waiting: [
          `提现 #${a.subjectId}（${f(a, 'amount')} ${f(a, 'code')}）等待出款，原因：${WAIT_REASON['zh-CN'][f(a, 'waitReason')] ?? f(a, 'waitReason')}，${where}。`,
          '请在运营后台的「提现」页面查看卡住的出款：检查手续费上限、热钱包余额和节点状态。',
        ] as [string, string],
        review_too_long: [
          `提现 #${a.subjectId}（${f(a, 'amount')} ${f(a, 'code')}）等待人工审核已超过设定时间，${where}。`,
          '请在运营后台的「提现」页面审核该笔提现（批准或拒绝）。',
        ] as [string, string],
      })[a.kind],
    footer: '该情况持续期间本告警只发送一次；情况解除后告警自动关闭。',
  },
  'en-US': {
    subject: (a) =>
      ({
        incident_open: `Coffer alert: chain incident #${a.subjectId} is open`,
        reconcile_drift: `Coffer alert: reconciliation drift on ${a.networkName ?? ''}`,
        hot_below_floor: `Coffer alert: hot wallet below its floor on ${a.networkName ?? ''}`,
        payout_waiting: `Coffer alert: payout of withdrawal #${a.subjectId} waiting too long`,
        review_too_long: `Coffer alert: withdrawal #${a.subjectId} in review too long`,
      })[a.kind],
    where: (a) => (a.networkName ? `network: ${a.networkName}` : 'network: the whole chain'),
    since: 'Since',
    body: (a, where) =>
      ({
        incident_open: [
          `Chain incident #${a.subjectId} (${f(a, 'incidentKind')}) is open (${where}). Payouts on it are frozen.`,
          'Open Withdrawals in the operator console, check the incident against the chain, deal with it and resolve the incident.',
        ] as [string, string],
        reconcile_drift: [
          `Reconciliation does not balance: chain holdings and what the ledger owes differ by ${f(a, 'drift')} ${f(a, 'code')} (${where}). Payouts on it are frozen.`,
          'Read the reconciliation in the operator console, find the difference (a missed deposit, unbooked gas, ...), fix it and resolve the incident.',
        ] as [string, string],
        hot_below_floor: [
          `The hot wallet is below its floor of ${f(a, 'floor')} ${f(a, 'code')} (${where}). Payouts may wait for funds.`,
          `Send at least ${f(a, 'short')} ${f(a, 'code')} from cold storage to the hot wallet and record the funding on the Networks page of the console.`,
        ] as [string, string],
        payout_waiting: [
          `The payout of withdrawal #${a.subjectId} (${f(a, 'amount')} ${f(a, 'code')}) is waiting: ${WAIT_REASON['en-US'][f(a, 'waitReason')] ?? f(a, 'waitReason')} (${where}).`,
          'Open Withdrawals in the operator console and look at the stuck payouts: the fee cap, the hot wallet balance and the node.',
        ] as [string, string],
        review_too_long: [
          `Withdrawal #${a.subjectId} (${f(a, 'amount')} ${f(a, 'code')}) has been in review longer than the set time (${where}).`,
          'Open Withdrawals in the operator console and review it (approve or reject).',
        ] as [string, string],
      })[a.kind],
    footer: 'This alert is sent once while the condition lasts; it closes by itself when the condition clears.',
  },
};

function part(locale: Locale, a: AlertMailFacts): { text: string; html: string } {
  const c = COPY[locale];
  const [what, todo] = c.body(a, c.where(a));
  const since = `${c.since}: ${utc(a.since)}`;
  return {
    text: `${what}\n${since}\n\n${todo}\n\n${c.footer}`,
    html: `<p>${escapeHtml(what)}</p>\n<p>${escapeHtml(since)}</p>\n<p><strong>${escapeHtml(todo)}</strong></p>\n<p style="color:#666">${escapeHtml(c.footer)}</p>`,
  };
}

/**
 * An alert's mail: in the operator's language when they chose one, else Chinese followed by
 * English. Says what, where (network, withdrawal id), since when and what to do.
 */
export function alertMail(a: AlertMailFacts, language: string | null): { subject: string; text: string; html: string } {
  const chosen: Locale | null = language === 'zh-CN' || language === 'en-US' ? language : null;
  const locales: Locale[] = chosen ? [chosen] : ['zh-CN', 'en-US'];
  const parts = locales.map((l) => part(l, a));
  const subject = chosen ? COPY[chosen].subject(a) : `${COPY['zh-CN'].subject(a)} / ${COPY['en-US'].subject(a)}`;
  return {
    subject,
    text: `${parts.map((p) => p.text).join('\n\n----\n\n')}\n`,
    html: `<!doctype html><html lang="${locales[0]}"><body style="font-family:sans-serif;line-height:1.5">
${parts.map((p) => p.html).join('\n<hr>\n')}
</body></html>`,
  };
}
