/**
 * GET /chain/v1/info (docs/api.md "Wallet and chain"): contract addresses, explorer, and whether the
 * server runs the embedded dev chain (then the built-in dev wallet may be offered). Fetched once per
 * page load and shared by the wallet and the chain-record piece.
 */
import type { ChainInfo } from '@cfx/contract/chain.ts';
import { ChainPaths } from '@cfx/contract/routes.ts';
import { api } from './api.ts';

export type { ChainInfo };

let pending: Promise<ChainInfo | null> | null = null;

/** The chain info, or null when the server did not answer (network error or failure; nothing is shown). */
export function getChainInfo(): Promise<ChainInfo | null> {
  pending ??= api<ChainInfo>(ChainPaths.info, undefined, { method: 'GET', silent: true }).then((r) => {
    if (r.ok && r.data) return r.data;
    pending = null; // try again next time
    return null;
  });
  return pending;
}

/** Tests only. */
export function resetChainInfoCache() {
  pending = null;
}
