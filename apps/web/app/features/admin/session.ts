import { create } from 'zustand';
import type { StaffMe } from '@cfx/contract/admin.ts';
import { readStorage, writeStorage } from '../../lib/storage.ts';

/**
 * The staff session in this tab: the token in sessionStorage (never localStorage, never a cookie:
 * it dies with the tab and never rides along with a request by itself), the signed-in staff
 * member in memory. Nothing of it exists during server rendering: console data is fetched in the
 * browser only.
 */
const KEY = 'cfx.staffToken';

export const staffToken = {
  get: (): string => readStorage(KEY, 'session') ?? '',
  set: (token: string) => writeStorage(KEY, token, 'session'),
  clear: () => writeStorage(KEY, null, 'session'),
};

interface StaffState {
  me: StaffMe | null;
  setMe(me: StaffMe | null): void;
}
export const useStaffStore = create<StaffState>()((set) => ({
  me: null,
  setMe: (me) => set({ me }),
}));

/** Whether the signed-in staff member holds `permission` (the server decides again on every call). */
export function useCan() {
  const me = useStaffStore((s) => s.me);
  return (permission: string) => Boolean(me?.permissions.includes(permission as never));
}
