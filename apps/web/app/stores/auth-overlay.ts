import { create } from 'zustand';

/** The login/register overlay: view 1 login, 2 register, 3 forgot password (steps 1-3). */
export type AuthView = 'login' | 'register' | 'forgot';

interface AuthOverlayState {
  open: boolean;
  /** Once opened, the lazily loaded overlay chunk stays mounted. */
  everOpened: boolean;
  view: AuthView;
  forgotStep: 1 | 2 | 3;
  inviteCode: string;
  registChannel: string;
  openOverlay(view?: AuthView, extra?: { inviteCode?: string; registChannel?: string }): void;
  setView(view: AuthView): void;
  setForgotStep(step: 1 | 2 | 3): void;
  /** Closing resets to view 1, step 1. */
  close(): void;
}

export const useAuthOverlay = create<AuthOverlayState>()((set) => ({
  open: false,
  everOpened: false,
  view: 'login',
  forgotStep: 1,
  inviteCode: '',
  registChannel: '',
  openOverlay(view = 'login', extra = {}) {
    set((s) => ({
      open: true,
      everOpened: true,
      view,
      forgotStep: 1,
      inviteCode: extra.inviteCode ?? s.inviteCode,
      registChannel: extra.registChannel ?? s.registChannel,
    }));
  },
  setView: (view) => set({ view, forgotStep: 1 }),
  setForgotStep: (forgotStep) => set({ forgotStep }),
  close: () => set({ open: false, view: 'login', forgotStep: 1 }),
}));
