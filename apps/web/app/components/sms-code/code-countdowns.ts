import { create } from 'zustand';

/**
 * The 60-second resend countdowns of the "获取验证码" buttons, by key, kept for the whole page
 * session: a dialog or view that is closed and opened again (remounted) shows the countdown it
 * had. One key per phone the code goes to, as the server's resend interval is per phone: the
 * auth views each have theirs (smsLogin, register, forgot), `security` is the user's own phone
 * (security dialogs, payout withdraw and unbind), `newMobile` the new phone of a phone change,
 * `bindCard` a card's reserved phone.
 */
export type CodeCountdownKey = 'smsLogin' | 'register' | 'forgot' | 'security' | 'newMobile' | 'bindCard';

interface CodeCountdownsState {
  /** Epoch ms at which each countdown ends (absent or 0: none). */
  ends: Partial<Record<CodeCountdownKey, number>>;
  start(key: CodeCountdownKey, seconds: number): void;
}

export const useCodeCountdowns = create<CodeCountdownsState>()((set) => ({
  ends: {},
  start: (key, seconds) => set((s) => ({ ends: { ...s.ends, [key]: Date.now() + seconds * 1000 } })),
}));
