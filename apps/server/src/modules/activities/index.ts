/** What the rest of the server may use from activities: the prize payout loop (started by runtime.ts). */
export { startActivityPayouts } from './payout.ts';
