import type { z } from 'zod';
import type { loveResult } from '@cfx/contract/market.ts';
import type { MarketPaths } from '@cfx/contract/routes.ts';
import { api } from '../api.ts';

export type LoveResult = z.infer<typeof loveResult>;

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const LOVE_PATH: (typeof MarketPaths)['love'] = '/goods/v1/love';

/**
 * POST /goods/v1/love {goodsId} — toggles a favourite and answers the new state: the collectible
 * page's heart (market) and removing one from my favourites (personal).
 */
export function toggleLove(goodsId: number) {
  return api<LoveResult>(LOVE_PATH, { goodsId });
}
