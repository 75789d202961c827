/**
 * Where the dev wallet keeps its state in the browser (localStorage). Kept apart from the signer
 * so the panel can read and revoke without loading secp256k1.
 *
 * The private key never leaves the browser and only ever signs for the embedded dev chain
 * (the wallet is offered only when GET /chain/v1/info says devWallet: true).
 */
import { readStorage, writeStorage } from '../../storage.ts';

export const DEV_WALLET_STORAGE = {
  /** 0x + 64 hex: the private key, generated on first use. */
  key: 'devWallet.key',
  /** '1' while this site may read the account (cfx_requestAccounts granted, not revoked). */
  authorized: 'devWallet.authorized',
} as const;

/** A storage the dev wallet can use (localStorage in the browser, a Map in tests). */
export interface KeyValueStore {
  get(key: string): string | null;
  set(key: string, value: string | null): void;
}

export const browserStore: KeyValueStore = {
  get: (key) => readStorage(key),
  set: (key, value) => writeStorage(key, value),
};

export function memoryStore(initial: Record<string, string> = {}): KeyValueStore {
  const m = new Map(Object.entries(initial));
  return {
    get: (key) => m.get(key) ?? null,
    set: (key, value) => (value === null ? m.delete(key) : m.set(key, value)),
  };
}

/** Revokes the site's access (cfx_accounts → []), like wallet_revokePermissions. */
export function revokeDevWallet(store: KeyValueStore = browserStore) {
  store.set(DEV_WALLET_STORAGE.authorized, null);
}
