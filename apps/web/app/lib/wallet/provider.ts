/**
 * The Conflux provider API spoken by Fluent (`window.conflux`, EIP-1193 style) and by the built-in dev
 * wallet. Only `request` is required; events are optional.
 *
 *   request({ method: 'cfx_requestAccounts' })             → ['cfx:…']  (4001 when the user refuses)
 *   request({ method: 'cfx_chainId' })                     → '0x405' on mainnet (1029)
 *   request({ method: 'personal_sign', params: [message, address] })            → 0x r‖s‖v
 *   request({ method: 'cfx_signTypedData_v4', params: [address, JSON typed data] }) → 0x r‖s‖v
 *   request({ method: 'cfx_sendTransaction', params: [tx] })                    → tx hash
 *   request({ method: 'cfx_getTransactionReceipt', params: [hash] })            → receipt | null
 *   on('accountsChanged', (accounts) => …), on('chainChanged', (chainId) => …)
 *
 * Fluent injects `window.conflux` asynchronously and then dispatches `conflux#initialized` on window.
 */

export interface RequestArguments {
  method: string;
  params?: unknown[] | object;
}

export interface ConfluxProvider {
  request(args: RequestArguments): Promise<unknown>;
  on?(event: string, handler: (...args: any[]) => void): unknown;
  removeListener?(event: string, handler: (...args: any[]) => void): unknown;
  isFluent?: boolean;
  /** Set by the built-in dev wallet. */
  isDevWallet?: boolean;
}

/** EIP-1193 error codes used here. */
export const RPC_ERRORS = {
  userRejected: 4001,
  unauthorized: 4100,
  unsupportedMethod: 4200,
  invalidParams: -32602,
  internal: -32603,
} as const;

export type WalletErrorReason = 'rejected' | 'unavailable' | 'failed';

/** A failed wallet request with a user-facing reason (see walletErrorKey). */
export class WalletError extends Error {
  constructor(
    readonly reason: WalletErrorReason,
    message: string,
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'WalletError';
  }
}

/** True when the user refused the request in the wallet (EIP-1193 code 4001). */
export function isUserRejection(err: unknown): boolean {
  if (err instanceof WalletError) return err.reason === 'rejected';
  return typeof err === 'object' && err !== null && Number((err as { code?: unknown }).code) === RPC_ERRORS.userRejected;
}

/** Normalises anything a provider threw into a WalletError. */
export function toWalletError(err: unknown): WalletError {
  if (err instanceof WalletError) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as { code?: unknown; message?: unknown; data?: unknown };
  const code = typeof e.code === 'number' ? e.code : Number.isFinite(Number(e.code)) ? Number(e.code) : undefined;
  const message = typeof e.message === 'string' ? e.message : String(err);
  if (code === RPC_ERRORS.userRejected) return new WalletError('rejected', message, code, e.data);
  return new WalletError('failed', message, code, e.data);
}

/** Calls the provider; any rejection becomes a WalletError. */
export async function walletRequest<T>(provider: ConfluxProvider, method: string, params?: unknown[] | object): Promise<T> {
  try {
    return (await provider.request(params === undefined ? { method } : { method, params })) as T;
  } catch (err) {
    throw toWalletError(err);
  }
}

/** The i18n key of a wallet error's user-facing text (the rejection text, or a generic failure). */
export function walletErrorKey(err: unknown): 'wallet.errors.rejected' | 'wallet.errors.unavailable' | 'wallet.errors.failed' {
  const e = toWalletError(err);
  if (e.reason === 'rejected') return 'wallet.errors.rejected';
  if (e.reason === 'unavailable') return 'wallet.errors.unavailable';
  return 'wallet.errors.failed';
}

/** A hex or decimal chain id (`0x405`, `'1029'`, 1029) as a number; NaN when unreadable. */
export function parseChainId(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string' || value === '') return Number.NaN;
  try {
    return Number(BigInt(value));
  } catch {
    return Number.NaN;
  }
}

declare global {
  interface Window {
    conflux?: ConfluxProvider;
  }
}

/** `window.conflux` right now, if it looks like a provider. */
export function injectedProvider(): ConfluxProvider | null {
  if (typeof window === 'undefined') return null;
  const p = window.conflux;
  return p && typeof p.request === 'function' ? p : null;
}

/**
 * Waits for Fluent: resolves at once when `window.conflux` exists, otherwise on `conflux#initialized`
 * or when the page has been open `timeoutMs` (null when nothing was injected). The wait counts from
 * the page start (extensions inject while the page loads), so a dialog opened later does not wait.
 */
export function detectFluent(timeoutMs = 1500): Promise<ConfluxProvider | null> {
  const now = injectedProvider();
  if (now || typeof window === 'undefined') return Promise.resolve(now);
  const remaining = Math.max(0, timeoutMs - (typeof performance !== 'undefined' ? performance.now() : 0));
  if (remaining === 0) return Promise.resolve(null);
  return new Promise((resolve) => {
    const done = () => {
      window.removeEventListener('conflux#initialized', done);
      clearTimeout(timer);
      resolve(injectedProvider());
    };
    const timer = setTimeout(done, remaining);
    window.addEventListener('conflux#initialized', done, { once: true });
  });
}
