import { createContext, useContext, type ReactNode } from 'react';
import { completeSignIn } from '../../lib/session.ts';
import { useAuthOverlay, type AuthView } from '../../stores/auth-overlay.ts';

/**
 * What the login, register and forgot-password views do when they move on: switch to another view
 * and finish a sign-in. The overlay (auth-overlay.tsx) switches its view and reloads the page in
 * place; the full pages under /account (routes/account.*.tsx) provide their own flow that navigates
 * between /account pages and lands the user on the page they came from. The views are the same
 * components in both places.
 */
export interface AuthFlow {
  go(view: AuthView): void;
  signedIn(token: string, message: string): void;
  /** The invite code (and registration channel) to pre-fill on the register view. */
  inviteCode: string;
  registChannel: string;
}

const AuthFlowContext = createContext<AuthFlow | null>(null);

export function AuthFlowProvider({ flow, children }: { flow: AuthFlow; children: ReactNode }) {
  return <AuthFlowContext.Provider value={flow}>{children}</AuthFlowContext.Provider>;
}

/** The flow of the enclosing page, or the overlay's. */
export function useAuthFlow(): AuthFlow {
  const page = useContext(AuthFlowContext);
  const setView = useAuthOverlay((s) => s.setView);
  const close = useAuthOverlay((s) => s.close);
  const inviteCode = useAuthOverlay((s) => s.inviteCode);
  const registChannel = useAuthOverlay((s) => s.registChannel);
  if (page) return page;
  return {
    go: setView,
    signedIn(token, message) {
      close();
      completeSignIn(token, message);
    },
    inviteCode,
    registChannel,
  };
}
