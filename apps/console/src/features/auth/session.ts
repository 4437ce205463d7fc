import type { CurrentUser, LoginData } from '@coffer/contract/auth';
import { tokenStore } from '../../lib/session';
import { getCurrentUser } from './api/current-user';
import { logout } from './api/logout';

export class NoPermission extends Error {}

/**
 * Keeps the session only when its user is an operator. Anyone else is signed out at once
 * (server and browser), so a wallet user's token never stays in the console.
 */
export async function acceptSession(data: LoginData): Promise<CurrentUser> {
  tokenStore.set(data.tokenHead, data.token);
  const user = await getCurrentUser();
  if (user.role !== 'operator') {
    await endSession();
    throw new NoPermission();
  }
  return user;
}

/** Signs out on the server (best effort) and forgets the token. */
export async function endSession() {
  try {
    if (tokenStore.get()) await logout();
  } catch {
    // Already gone on the server: forgetting it here is what matters.
  } finally {
    tokenStore.clear();
  }
}
