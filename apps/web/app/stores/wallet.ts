import { create } from 'zustand';
import { STORAGE } from '../config.ts';
import { readStorage, writeStorage } from '../lib/storage.ts';
import { useUserStore } from './user.ts';

/** Which wallet the user links with: the Fluent extension (window.conflux) or the built-in dev wallet. */
export type WalletKind = 'fluent' | 'dev';

/**
 * Wallet UI state (the address and isLoginWallet live in the user store). The dialog and
 * the dev-wallet panel are lazy chunks mounted by root.tsx once first opened.
 */
interface WalletUiState {
  /** The wallet kind of the current link ('' = none chosen yet). */
  kind: WalletKind | '';
  dialogOpen: boolean;
  panelOpen: boolean;
  /** True once the dialog or the panel has been opened (their chunk is then mounted). */
  everOpened: boolean;
  loadKind(): void;
  setKind(kind: WalletKind | ''): void;
  openDialog(): void;
  closeDialog(): void;
  openPanel(): void;
  closePanel(): void;
  reset(): void;
}

export const useWalletStore = create<WalletUiState>()((set) => ({
  kind: '',
  dialogOpen: false,
  panelOpen: false,
  everOpened: false,
  loadKind() {
    const stored = readStorage(STORAGE.walletKind);
    set({ kind: stored === 'fluent' || stored === 'dev' ? stored : '' });
  },
  setKind(kind) {
    writeStorage(STORAGE.walletKind, kind || null);
    set({ kind });
  },
  openDialog: () => set({ dialogOpen: true, panelOpen: false, everOpened: true }),
  closeDialog: () => set({ dialogOpen: false }),
  openPanel: () => set({ panelOpen: true, dialogOpen: false, everOpened: true }),
  closePanel: () => set({ panelOpen: false }),
  reset: () => set({ dialogOpen: false, panelOpen: false }),
}));

/** Site logout and a lost session clear the wallet status too: close the wallet UI. */
useUserStore.subscribe((state, prev) => {
  if (prev.token && !state.token) useWalletStore.getState().reset();
});
