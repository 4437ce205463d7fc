import type { OperatorAlert } from '@coffer/contract/alerts';
import { formatAmount } from '@coffer/contract/rules';
import type { TFunction } from 'i18next';

/** An amount inside a sentence: grouped, exact (the table's Amount cell is for columns). */
const amount = (v: string | undefined) => (v === undefined ? '?' : formatAmount(v));

/** The alert in words: what happened, on which network or withdrawal (the page's "what" column). */
export function alertWhat(t: TFunction, a: OperatorAlert): string {
  const f = a.facts;
  return t(`alerts.what.${a.kind}`, {
    id: a.subjectId,
    network: a.networkName ?? t('alerts.wholeChain'),
    incidentKind: f.incidentKind ? t(`alerts.incidentKind.${f.incidentKind}`, { defaultValue: f.incidentKind }) : '',
    drift: amount(f.drift),
    floor: amount(f.floor),
    short: amount(f.short),
    amount: amount(f.amount),
    code: f.code ?? '',
    waitReason: f.waitReason ? t(`alerts.waitReason.${f.waitReason}`, { defaultValue: f.waitReason }) : '',
  });
}

/** What the operator should do about it. */
export const alertAction = (t: TFunction, a: OperatorAlert): string =>
  t(`alerts.action.${a.kind}`, { short: amount(a.facts.short), code: a.facts.code ?? '' });
