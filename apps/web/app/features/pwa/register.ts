/**
 * The web app's install and offline support (issue #11): registers /sw.js (scope /) once the page
 * has loaded and the browser is idle — after hydration, off the initial JS path — and keeps the
 * `beforeinstallprompt` event so the download page can offer its install button. Tiny on purpose:
 * root.tsx imports it statically.
 */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>;
}

interface InstallState {
  /** The deferred install prompt, when the browser offered one. */
  prompt: InstallPromptEvent | null;
  /** The app was installed during this visit. */
  installed: boolean;
}

let state: InstallState = { prompt: null, installed: false };
const listeners = new Set<() => void>();
const set = (next: Partial<InstallState>) => {
  state = { ...state, ...next };
  for (const l of listeners) l();
};

export const installState = () => state;
export function subscribeInstall(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
/** Shows the browser's install prompt; resolves with the user's choice (the prompt can be used once). */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const p = state.prompt;
  if (!p) return 'unavailable';
  set({ prompt: null });
  await p.prompt();
  const { outcome } = await p.userChoice;
  if (outcome === 'accepted') set({ installed: true });
  return outcome;
}

let started = false;

/** Called once after hydration (root.tsx). `register` is false in development (Vite serves no built sw.js). */
export function startPwa(register = true): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  window.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault();
    set({ prompt: e as InstallPromptEvent });
  });
  window.addEventListener('appinstalled', () => set({ prompt: null, installed: true }));
  if (!register || !('serviceWorker' in navigator)) return;
  const go = () => {
    const idle = (window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback;
    const run = () => void navigator.serviceWorker.register('/sw.js', { scope: '/', updateViaCache: 'none' }).catch((err: unknown) => console.warn('[sw] register', err));
    if (idle) idle(run, { timeout: 3000 });
    else setTimeout(run, 200);
  };
  if (document.readyState === 'complete') go();
  else window.addEventListener('load', go, { once: true });
}
