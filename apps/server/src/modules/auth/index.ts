/**
 * What other modules may use from auth: the withdraw flow checks a `withdraw` e-mail code
 * with checkEmailCode (counts the try, 2004 when wrong) and then uses it up with
 * consumeEmailCode inside the transaction that creates the withdrawal.
 */
export { checkEmailCode, consumeEmailCode } from './email-codes.ts';
