/**
 * Wallet actions for the chain flows: send a transaction and wait for its receipt,
 * and sign CIP-23 typed data. Used by the listing flow (approve the exchange / approve the zero
 * address, sign the listOrder).
 *
 * Receipt polling: no receipt → wait and retry; `outcomeStatus` 0 → success, any other
 * value → failure; after the retry limit the result is "not successful" (status 'timeout').
 * Defaults: 5 tries, 3000 ms apart, configurable per call.
 */
import { toHexAddress } from '@cfx/protocol/address.ts';
import type { Cip23TypedData, TypedDataTypes } from '@cfx/protocol/cip23.ts';
import { type ConfluxProvider, WalletError, walletRequest } from './provider.ts';

export const RECEIPT_POLL = { tries: 5, intervalMs: 3000 } as const;

/** A Conflux Core transaction as Fluent's cfx_sendTransaction takes it (quantities as 0x-hex). */
export interface TxRequest {
  from: string;
  to?: string;
  data?: string;
  value?: string;
  gas?: string;
  gasPrice?: string;
  storageLimit?: string;
  nonce?: string;
  epochHeight?: string;
  chainId?: string;
}

/** The fields of a Core receipt used here (the node sends more). */
export interface TxReceipt {
  transactionHash: string;
  /** 0 (`'0x0'`) success, 1 failed (reverted), 2 skipped. */
  outcomeStatus: string | number;
  txExecErrorMsg?: string | null;
  epochNumber?: string;
  gasCoveredBySponsor?: boolean;
  storageCoveredBySponsor?: boolean;
  [key: string]: unknown;
}

export type TxResult =
  | { status: 'success'; hash: string; receipt: TxReceipt }
  | { status: 'failed'; hash: string; receipt: TxReceipt; reason: string }
  | { status: 'timeout'; hash: string };

export interface ReceiptPollOptions {
  /** How many times the receipt is asked for (default 5). */
  tries?: number;
  /** Wait between two asks, in ms (default 3000). */
  intervalMs?: number;
  /** Stops waiting (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
  /** Injectable for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** 0 for success; NaN when missing or unreadable. */
export function outcomeStatusOf(receipt: Pick<TxReceipt, 'outcomeStatus'>): number {
  const v = receipt.outcomeStatus;
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v !== '') {
    try {
      return Number(BigInt(v));
    } catch {
      return Number.NaN;
    }
  }
  return Number.NaN;
}

/**
 * Polls cfx_getTransactionReceipt: up to `tries` asks, `intervalMs` apart. A failed ask (e.g. a
 * network hiccup) counts as "no receipt yet".
 */
export async function waitForReceipt(provider: ConfluxProvider, hash: string, opts: ReceiptPollOptions = {}): Promise<TxResult> {
  const tries = Math.max(1, opts.tries ?? RECEIPT_POLL.tries);
  const intervalMs = Math.max(0, opts.intervalMs ?? RECEIPT_POLL.intervalMs);
  const sleep = opts.sleep ?? defaultSleep;
  for (let i = 0; i < tries; i++) {
    if (opts.signal?.aborted) throw opts.signal.reason;
    let receipt: TxReceipt | null;
    try {
      receipt = await walletRequest<TxReceipt | null>(provider, 'cfx_getTransactionReceipt', [hash]);
    } catch {
      receipt = null;
    }
    if (receipt) {
      const status = outcomeStatusOf(receipt);
      if (status === 0) return { status: 'success', hash, receipt };
      return { status: 'failed', hash, receipt, reason: receipt.txExecErrorMsg || `outcomeStatus ${String(receipt.outcomeStatus)}` };
    }
    if (i < tries - 1) await sleep(intervalMs, opts.signal);
  }
  return { status: 'timeout', hash };
}

/** cfx_sendTransaction; resolves with the hash. A refusal in the wallet rejects with reason 'rejected'. */
export async function sendTransaction(provider: ConfluxProvider, tx: TxRequest): Promise<string> {
  const hash = await walletRequest<unknown>(provider, 'cfx_sendTransaction', [tx]);
  if (typeof hash !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(hash)) throw new WalletError('failed', `unexpected transaction hash: ${String(hash)}`);
  return hash;
}

/**
 * Sends a transaction and waits for its receipt. `onSent` is called with the hash as soon
 * as the wallet returns it (for a "confirming on chain" step).
 */
export async function sendTransactionAndWait(
  provider: ConfluxProvider,
  tx: TxRequest,
  opts: ReceiptPollOptions & { onSent?: (hash: string) => void } = {},
): Promise<TxResult> {
  const hash = await sendTransaction(provider, tx);
  opts.onSent?.(hash);
  return waitForReceipt(provider, hash, opts);
}

/**
 * Typed data as Fluent wants it: every `address` field (also inside arrays and nested structs, and
 * the domain's verifyingContract) in lower-case hex, `chainId` a JS number.
 */
export function withHexAddresses<T extends Cip23TypedData<object>>(typedData: T): T {
  const types = typedData.types as TypedDataTypes;
  const convert = (type: string, value: unknown): unknown => {
    const array = /^(.*)\[\d*\]$/.exec(type);
    if (array) return Array.isArray(value) ? value.map((v) => convert(array[1]!, v)) : value;
    if (type === 'address') return typeof value === 'string' ? toHexAddress(value) : value;
    const fields = types[type];
    if (fields && value && typeof value === 'object') {
      const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      for (const f of fields) if (f.name in out) out[f.name] = convert(f.type, out[f.name]);
      return out;
    }
    return value;
  };
  const domain = convert('CIP23Domain', typedData.domain) as T['domain'];
  if (typeof domain.chainId !== 'number') throw new TypeError('typed data domain.chainId must be a JS number');
  return { ...typedData, domain, message: convert(typedData.primaryType, typedData.message) as T['message'] };
}

/**
 * cfx_signTypedData_v4 with `address` (the wallet's account, as cfx_accounts returns it). Resolves
 * with the 65-byte r‖s‖v signature (v 0/1 from Fluent).
 */
export async function signTypedData(provider: ConfluxProvider, address: string, typedData: Cip23TypedData<object>): Promise<`0x${string}`> {
  const payload = JSON.stringify(withHexAddresses(typedData));
  const sig = await walletRequest<unknown>(provider, 'cfx_signTypedData_v4', [address, payload]);
  if (typeof sig !== 'string' || !/^0x[0-9a-fA-F]{130}$/.test(sig)) throw new WalletError('failed', `unexpected signature: ${String(sig)}`);
  return sig as `0x${string}`;
}

/** The i18n key describing a non-successful result (`{{reason}}` for failures), or null on success. */
export function txResultKey(result: TxResult): 'wallet.errors.txFailed' | 'wallet.errors.txTimeout' | null {
  if (result.status === 'success') return null;
  return result.status === 'failed' ? 'wallet.errors.txFailed' : 'wallet.errors.txTimeout';
}
