import { ErrorCode } from '@coffer/contract/errors';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

/** The browser's storage as the console uses it (node has none). */
class MemoryStorage {
  private items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

let apiModule: typeof import('./api');
let session: typeof import('./session');

beforeAll(async () => {
  vi.stubGlobal('localStorage', new MemoryStorage());
  vi.stubGlobal('sessionStorage', new MemoryStorage());
  vi.stubGlobal('navigator', { languages: ['en-US'], language: 'en-US' });
  apiModule = await import('./api');
  session = await import('./session');
});

/** A fetch that answers `code` only when released, like a poll still in flight. */
function slowAnswer(code: number) {
  let release = () => {};
  const answered = new Promise<void>((resolve) => {
    release = resolve;
  });
  vi.stubGlobal('fetch', async () => {
    await answered;
    return new Response(JSON.stringify({ code, message: 'Not signed in or session expired', data: null }));
  });
  return release;
}

describe('the console API client and the signed-out handler', () => {
  const signedOut = vi.fn();
  beforeEach(() => {
    signedOut.mockReset();
    apiModule.setSignedOutHandler(signedOut);
  });

  it('signs out when the current session is gone', async () => {
    session.tokenStore.set('Bearer ', 'current');
    slowAnswer(ErrorCode.NOT_SIGNED_IN)();
    await expect(apiModule.api.get('/admin/alerts')).rejects.toMatchObject({ code: ErrorCode.NOT_SIGNED_IN });
    expect(signedOut).toHaveBeenCalledWith('expired', 'Not signed in or session expired');
  });

  it('ignores a refusal for a session already left while the call was in flight', async () => {
    session.tokenStore.set('Bearer ', 'old');
    const release = slowAnswer(ErrorCode.NOT_SIGNED_IN);
    const call = apiModule.api.get('/admin/alerts');
    // The idle sign-out ends the session, then the poll's answer arrives.
    session.tokenStore.clear();
    release();
    await expect(call).rejects.toMatchObject({ code: ErrorCode.NOT_SIGNED_IN });
    expect(signedOut).not.toHaveBeenCalled();
  });

  it('ignores it too when another session took its place', async () => {
    session.tokenStore.set('Bearer ', 'old');
    const release = slowAnswer(ErrorCode.OPERATOR_SESSION_NOT_VERIFIED);
    const call = apiModule.api.get('/admin/dashboard');
    session.tokenStore.set('Bearer ', 'new');
    release();
    await expect(call).rejects.toMatchObject({ code: ErrorCode.OPERATOR_SESSION_NOT_VERIFIED });
    expect(signedOut).not.toHaveBeenCalled();
  });
});
