/**
 * What other modules may use from the security centre: the login path records attempts with
 * recordSignIn, a wrong second factor with recordWrongSecondFactor (which also alerts the owner); notifySecurityEvent mails the user about a security event (also reachable as
 * `app.notifySecurityEvent(userId, kind)` on the Fastify instance); withAntiPhishing wraps the
 * app's mailer once (app.ts) so every mail carries the user's anti-phishing phrase.
 */
export { notifySecurityEvent, type SecurityEventClient, withAntiPhishing } from './mail.ts';
export { recordWrongSecondFactor } from './second-factor-alert.ts';
export { recordSignIn } from './sign-ins.ts';
