/** A DNS host name with at least one letter in its last label (so never an IP address). */
export const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

export interface WebAuthnSettings {
  rpId: string;
  origins: string[];
}

/** What the passkey settings read of the parsed environment. */
interface WebAuthnEnv {
  HOST: string;
  PORT: number;
  WEBAUTHN_RP_ID?: string;
  WEBAUTHN_ORIGIN?: string;
}

/**
 * The passkeys' relying party: an origin must be https (http only on localhost) and on the
 * RP ID's host or one of its subdomains, or the browser would refuse it anyway.
 */
export function webauthnSettings(env: WebAuthnEnv, fail: (message: string) => Error): WebAuthnSettings {
  const host = env.HOST.toLowerCase();
  const rpId = env.WEBAUTHN_RP_ID ?? (HOST_NAME.test(host) ? host : 'localhost');
  const local = rpId === 'localhost';
  const raw = env.WEBAUTHN_ORIGIN
    ? env.WEBAUTHN_ORIGIN.split(',')
        .map((o) => o.trim())
        .filter(Boolean)
    : [];
  const origins = raw.length > 0 ? raw : [local ? `http://localhost:${env.PORT}` : `https://${rpId}`];
  for (const origin of origins) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw fail(`Invalid configuration:\n  WEBAUTHN_ORIGIN: ${origin} is not a URL`);
    }
    const sameSite = url.hostname === rpId || url.hostname.endsWith(`.${rpId}`);
    const scheme = url.protocol === 'https:' || (url.protocol === 'http:' && url.hostname === 'localhost');
    if (!sameSite || !scheme || url.origin !== origin.replace(/\/$/, '')) {
      throw fail(
        `Invalid configuration:\n  WEBAUTHN_ORIGIN: ${origin} must be an https origin (http only on localhost) on ${rpId} (WEBAUTHN_RP_ID) or a subdomain`,
      );
    }
  }
  return { rpId, origins: origins.map((o) => o.replace(/\/$/, '')) };
}
