import type { MarketPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { ChainListingState } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const OPEN_AND_CLOSE_NOTIFY_PATH: (typeof MarketPaths)['openAndCloseNotify'] = '/goods/v1/openAndCloseNotify';

/** POST /goods/v1/openAndCloseNotify {goodsId, txHash?, action?} — the server re-reads the chain and reports the listing state. */
export function openCloseNotify(body: { goodsId: number; txHash?: string; action: 'open' | 'close' }) {
  return api<ChainListingState>(OPEN_AND_CLOSE_NOTIFY_PATH, body, { silent: true });
}
