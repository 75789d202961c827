// Dry-run a contract call and name its revert reason (custom errors included).
//
// Why: js-conflux-sdk mangles revert data (it turns the hex of cfx_call's error.data
// into a string), and a mined transaction that fails only reports
// `outcomeStatus: 1, txExecErrorMsg: 'Vm reverted, '` without the custom error.
// The raw JSON-RPC `cfx_call` error carries the ABI-encoded revert data in
// `error.data` (code -32015, message 'Transaction reverted').
// Use simulateCall before executeOrder to tell permanent failures (InvalidSigner,
// NotOnShelf, SellerOrderIdUsed, …) from transient ones.
import { Contract } from 'js-conflux-sdk';
import type { AbiItem } from './artifacts.ts';

export interface RevertInfo {
  /** Custom error name, 'Error' for require(msg), 'Panic', or 'Unknown'. */
  name: string;
  /** 4-byte selector (0x…), '' when the revert carried no data. */
  selector: string;
  /** Decoded message of Error(string). */
  message?: string;
  /** Full revert data (0x…). */
  data: string;
}

export type CallOutcome = { ok: true; result: string } | { ok: false; revert: RevertInfo; rpcMessage: string };

export interface CallRequest {
  from?: string;
  to: string;
  data: string;
  value?: string;
}

/** Solidity's built-in revert payloads: `require(cond, msg)` / `revert(msg)` and compiler panics. */
const BUILTIN_ERRORS: AbiItem[] = [
  { type: 'error', name: 'Error', inputs: [{ name: 'message', type: 'string' }] },
  { type: 'error', name: 'Panic', inputs: [{ name: 'code', type: 'uint256' }] },
];

/**
 * Errors of earlier versions of the contracts, which a chain deployed with them still reverts with.
 * OrderAlreadyFilled: the Exchange kept a fill flag per order hash until it was found implied by the
 * seller order id's state (an order hash commits to its seller and seller order id); an Exchange
 * deployed before answers a fill sent again with it, and the platform reads it as "already filled".
 */
export const LEGACY_ERRORS: AbiItem[] = [{ type: 'error', name: 'OrderAlreadyFilled', inputs: [{ name: 'orderHash', type: 'bytes32' }] }];

/**
 * The 4-byte selector of an error, from js-conflux-sdk's ABI coder: an error is encoded like a
 * function call (selector = first 4 bytes of keccak256 of its canonical signature, tuples included).
 */
function errorSelector(item: AbiItem): string {
  // A Contract without a Conflux instance: only its coder is used (no addresses, no RPC).
  const coder = new (Contract as any)({ abi: [{ type: 'function', name: item.name, inputs: item.inputs ?? [], outputs: [], stateMutability: 'pure' }] });
  return coder[item.name!].signature as string;
}

/** Selector → error name for every custom error of the ABIs (plus Error/Panic and the legacy errors). */
export function errorSelectors(...abis: AbiItem[][]): Map<string, string> {
  const map = new Map<string, string>();
  for (const item of [...BUILTIN_ERRORS, ...LEGACY_ERRORS, ...abis.flat()]) {
    if (item.type === 'error' && item.name) map.set(errorSelector(item), item.name);
  }
  return map;
}

/** Name a revert from its data. */
export function decodeRevert(data: string, selectors: Map<string, string>): RevertInfo {
  const hex = (data || '0x').toLowerCase();
  const selector = hex.length >= 10 ? hex.slice(0, 10) : '';
  const name = selectors.get(selector) ?? 'Unknown';
  const info: RevertInfo = { name, selector, data: hex };
  if (name === 'Error') info.message = decodeErrorString(hex);
  return info;
}

/** cfx_call at latest_state: the result, or the named revert. */
export async function simulateCall(rpcUrl: string, request: CallRequest, selectors: Map<string, string>): Promise<CallOutcome> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'cfx_call', params: [request, 'latest_state'] }),
  });
  const body = (await res.json()) as { result?: string; error?: { code: number; message: string; data?: unknown } };
  if (!body.error) return { ok: true, result: body.result ?? '0x' };
  const data = typeof body.error.data === 'string' && body.error.data.startsWith('0x') ? body.error.data : '0x';
  if (body.error.code !== -32015 && data === '0x') throw new Error(`cfx_call failed: ${body.error.message} (${body.error.code})`);
  return { ok: false, revert: decodeRevert(data, selectors), rpcMessage: body.error.message };
}

/** The message of an Error(string) revert, decoded by js-conflux-sdk's error coder. */
function decodeErrorString(hex: string): string | undefined {
  const decoded: unknown = Contract.decodeError({ data: hex });
  return decoded instanceof Error ? decoded.message : undefined;
}
