import type { MarketPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { LoveResult } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const LOVE_PATH: (typeof MarketPaths)['love'] = '/goods/v1/love';

/** POST /goods/v1/love {goodsId} — toggles the favourite; answers the new state. */
export function toggleLove(goodsId: number) {
  return api<LoveResult>(LOVE_PATH, { goodsId });
}
