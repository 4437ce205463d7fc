export { type AlertLimits, currentConditions } from './conditions.ts';
export { ALERT_MAIL_ATTEMPTS, alertTick, startOperatorAlerts } from './worker.ts';
