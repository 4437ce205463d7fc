import { useUserStore } from '../stores/user';
import { tokenStorage } from './storage';

/** Signed out (docs/product.md §3): no token, no user info, nothing left in session storage. */
export function clearSession() {
  tokenStorage.clear();
  useUserStore.getState().clearUser();
}

export function isSignedIn() {
  return tokenStorage.get() !== null;
}
