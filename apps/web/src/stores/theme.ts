import { create } from 'zustand';
import { local, STORAGE_KEYS } from '../lib/storage';

export type Theme = 'light' | 'dark';

/**
 * Spec §9 theme colours: #00aba9 is the light theme's colour (primary, progress bar,
 * browser chrome); #ffffff takes that role on the dark theme, where a teal bar on a
 * near-black page would be hard to see.
 */
export const THEME_COLORS: Record<Theme, string> = { light: '#00aba9', dark: '#ffffff' };

export function initialTheme(): Theme {
  const stored = local.get(STORAGE_KEYS.theme);
  if (stored === 'light' || stored === 'dark') return stored;
  if (typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches) return 'dark';
  return 'light';
}

/** antd-mobile switches its variables on html[data-prefers-color-scheme="dark"]. */
export function applyTheme(theme: Theme) {
  const root = document.documentElement;
  root.setAttribute('data-prefers-color-scheme', theme);
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', THEME_COLORS[theme]);
}

interface ThemeState {
  theme: Theme;
  setTheme: (theme: Theme) => void;
}

export const useThemeStore = create<ThemeState>((set) => ({
  theme: initialTheme(),
  setTheme: (theme) => {
    local.set(STORAGE_KEYS.theme, theme);
    applyTheme(theme);
    set({ theme });
  },
}));
