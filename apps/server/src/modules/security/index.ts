/**
 * What other modules may use from the security centre: the login path records attempts with
 * recordSignIn; notifySecurityEvent mails the user about a security event (also reachable as
 * `app.notifySecurityEvent(userId, kind)` on the Fastify instance).
 */
export { notifySecurityEvent, type SecurityEventClient } from './mail.ts';
export { recordSignIn } from './sign-ins.ts';
