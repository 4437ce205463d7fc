/**
 * What other modules may use from auth: the withdraw flow checks a `withdraw` e-mail code
 * with checkEmailCode (counts the try, 2004 when wrong, 2005 when the address has had too
 * many wrong codes; the owner is alerted by the auth module's mailer) and then uses it up with
 * consumeEmailCode inside the transaction that creates the withdrawal. Two-factor's enable
 * takes the password in its body through reauthenticate (the re-authentication of this
 * session, under the sign-in limits).
 */
export { checkEmailCode, consumeEmailCode } from './email-codes.ts';
/** The security centre's password change hashes, checks and judges passwords as sign-up does. */
export { assertAcceptablePassword, hashPassword, verifyPassword } from './passwords.ts';
export { reauthenticate } from './reauth.ts';
