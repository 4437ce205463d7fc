/**
 * What other modules may use from holds (docs/security.md, "Withdrawal hold"): credential
 * changes open a hold (openHold inside their transaction and mailHold after it, or holdAfter);
 * withdrawals ask assertNoHold first. The routes read and cancel the hold.
 */
export { activeHold, assertNoHold, cancelHold, type HoldDeps, holdAfter, mailHold, openHold, timeLeft } from './service.ts';
