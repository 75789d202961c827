/** Login-state transitions shared by the header, the overlay and the personal center. */
import type { UserProfile } from '@cfx/contract/user.ts';
import { UserPaths } from '@cfx/contract/routes.ts';
import { STORAGE } from '../config.ts';
import { useUserStore } from '../stores/user.ts';
import { toast, type ToastKind } from '../stores/toast.ts';
import { api } from './api.ts';
import { goTo, isPersonalCenterPath } from './navigation.ts';
import { readStorage, writeStorage } from './storage.ts';

/** Fetches the profile of the stored token. A non-success answer clears the user. */
export async function fetchProfile(): Promise<boolean> {
  if (!useUserStore.getState().token) return false;
  const r = await api<UserProfile>(UserPaths.userprofile);
  if (r.ok && r.data) {
    useUserStore.getState().setProfile(r.data);
    return true;
  }
  if (!r.ok && !r.networkError) useUserStore.getState().clear();
  return false;
}

/** Logout: on 000000 clear everything and leave personal-center pages; otherwise nothing happens. */
export async function logout(): Promise<void> {
  const r = await api<null>(UserPaths.logout, {}, { silent: true });
  if (!r.ok) return;
  useUserStore.getState().clear();
  if (r.message) toast.success(r.message);
  if (isPersonalCenterPath(window.location.pathname)) goTo('/', { replace: true });
}

/**
 * After a successful login or registration: store the token, and reload the app.
 * The toast is shown now and once more after the reload (a "flash" kept in sessionStorage).
 */
export function completeSignIn(token: string, message: string) {
  useUserStore.getState().setToken(token);
  toast.success(message);
  writeStorage(STORAGE.flash, JSON.stringify({ kind: 'success', text: message }), 'session');
  window.location.reload();
}

/** Shows the toast left by completeSignIn before the reload. */
export function showFlashToast() {
  const raw = readStorage(STORAGE.flash, 'session');
  if (!raw) return;
  writeStorage(STORAGE.flash, null, 'session');
  try {
    const flash = JSON.parse(raw) as { kind: ToastKind; text: string };
    if (flash.text) toast[flash.kind](flash.text);
  } catch {
    /* ignore a corrupt flash */
  }
}
