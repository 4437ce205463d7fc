/** What other modules may use from deposits: how many confirmations a chain record has (withdrawals show it too). */
export { confirmationsOf } from './service.ts';
