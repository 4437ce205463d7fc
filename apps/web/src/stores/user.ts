import type { CurrentUser } from '@coffer/contract/auth';
import { create } from 'zustand';
import { STORAGE_KEYS, session } from '../lib/storage';

/** What the client keeps about the signed-in user: GET /api/getCurrentUser's answer (contract CurrentUser). */
export type UserInfo = CurrentUser;

function readStoredUser(): UserInfo | null {
  const raw = session.get(STORAGE_KEYS.user);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as UserInfo;
  } catch {
    return null;
  }
}

interface UserState {
  user: UserInfo | null;
  setUser: (user: UserInfo) => void;
  clearUser: () => void;
}

export const useUserStore = create<UserState>((set) => ({
  user: readStoredUser(),
  setUser: (user) => {
    session.set(STORAGE_KEYS.user, JSON.stringify(user));
    set({ user });
  },
  clearUser: () => {
    session.clear();
    set({ user: null });
  },
}));
