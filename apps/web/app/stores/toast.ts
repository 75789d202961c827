import { create } from 'zustand';
import { LIMITS } from '@cfx/contract/limits.ts';

export type ToastKind = 'success' | 'info' | 'warning' | 'error';
export interface ToastItem {
  id: number;
  kind: ToastKind;
  text: string;
  closable: boolean;
}

interface ToastState {
  items: ToastItem[];
  push(kind: ToastKind, text: string, opts?: { closable?: boolean; durationMs?: number }): number;
  dismiss(id: number): void;
  closeAll(): void;
}

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

/** Messages at the top centre; each lasts LIMITS.messageDurationMs (1 s). */
export const useToastStore = create<ToastState>()((set, get) => ({
  items: [],
  push(kind, text, opts = {}) {
    const id = nextId++;
    set((s) => ({ items: [...s.items.slice(-4), { id, kind, text, closable: opts.closable ?? false }] }));
    if (typeof window !== 'undefined') {
      timers.set(id, setTimeout(() => get().dismiss(id), opts.durationMs ?? LIMITS.messageDurationMs));
    }
    return id;
  },
  dismiss(id) {
    const timer = timers.get(id);
    if (timer) clearTimeout(timer);
    timers.delete(id);
    set((s) => ({ items: s.items.filter((t) => t.id !== id) }));
  },
  closeAll() {
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
    set({ items: [] });
  },
}));

/** Imperative helpers, usable from event handlers and non-React modules. */
export const toast = {
  success: (text: string) => useToastStore.getState().push('success', text),
  info: (text: string) => useToastStore.getState().push('info', text),
  warning: (text: string) => useToastStore.getState().push('warning', text),
  /** The red message; closable. */
  error: (text: string) => useToastStore.getState().push('error', text, { closable: true }),
  closeAll: () => useToastStore.getState().closeAll(),
};
