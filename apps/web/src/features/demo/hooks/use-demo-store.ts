import { create } from 'zustand';

/**
 * State of the demo pages lives outside React, so it survives leaving the page: that is
 * how the keepalive and scroll-cache demos keep their state (docs/product.md §2).
 */
interface DemoState {
  count: number;
  note: string;
  scrollY: number;
  increment: () => void;
  decrement: () => void;
  setNote: (note: string) => void;
  setScrollY: (y: number) => void;
}

export const useDemoStore = create<DemoState>((set) => ({
  count: 0,
  note: '',
  scrollY: 0,
  increment: () => set((state) => ({ count: state.count + 1 })),
  decrement: () => set((state) => ({ count: state.count - 1 })),
  setNote: (note) => set({ note }),
  setScrollY: (scrollY) => set({ scrollY }),
}));
