/**
 * Notices, mails and Web Push for money and security events (docs/decisions/054): the jobs
 * leader's loop over committed deposit and withdrawal events, the transfer service's report
 * of a landed transfer, and the security module's notices.
 */
export { notifyMoneyEvents, startMoneyEventNotices } from './money-events.ts';
export { type NoticeEvent, notifierFor } from './notifier.ts';
export { securityWords } from './templates.ts';
export { drainTransferNotices, transferLanded } from './transfer-notices.ts';
