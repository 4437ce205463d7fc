/**
 * Demo pages are a developer showcase (DESIGN §8). Both operands are replaced at build
 * time, so a production build without the flag drops the demo chunks entirely.
 */
export const DEMO_PAGES_ENABLED = import.meta.env.DEV || import.meta.env.VITE_DEMO_PAGES === 'true';
