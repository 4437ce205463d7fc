import { codeFor, sendPreviousCode } from './authenticator';

/** A file's own API caller on its own stack (address-book, withdraw-fee): throws unless code 0. */
type Api = <T>(path: string, opts?: { token?: string; body?: unknown }) => Promise<T>;

/**
 * Makes a just-registered operator's session one the admin routes accept (decision 045) on a
 * stack of the test file's own: enrols an authenticator with the previous 30 s step's code, then
 * signs in with the current step's (the server takes one step either side, each step once), so
 * nothing waits for a code.
 */
export async function verifiedOperatorSession(api: Api, email: string, password: string, token: string): Promise<string> {
  await api('/security/reauth', { token, body: { password } });
  const setup = await api<{ secret: string }>('/2fa/setup', { token, body: {} });
  await sendPreviousCode(setup.secret, (code) => api('/2fa/enable', { token, body: { code } }));
  const login = await api<{ secondFactor: { challenge: string } }>('/login', { body: { email, password } });
  const session = await api<{ token: string; tokenHead: string }>('/login/2fa', {
    body: { challenge: login.secondFactor.challenge, code: codeFor(setup.secret) },
  });
  return session.tokenHead + session.token;
}
