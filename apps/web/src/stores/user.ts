import { create } from 'zustand';
import { STORAGE_KEYS, session } from '../lib/storage';

/** What the client keeps about the signed-in user (spec §3); mirrors GET /api/getCurrentUser. */
export interface UserInfo {
  uid: number;
  email: string;
  nickname: string;
  avatar: string | null;
  language?: string | null;
  role?: string;
  /** Authenticator codes on: withdrawals ask for one. */
  twoFactor?: boolean;
  createdAt?: string;
}

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
