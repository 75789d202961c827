import { z } from 'zod';
import { intVar, parseVars } from './vars.ts';

/** Settings of blind-box openings, compose and moving collectibles (docs/drops.md). */
export interface GoodsFlowsConfig {
  /** Gifts (转赠) one user may start per China-time day (GIFTS_PER_DAY, default 5). */
  giftsPerDay: number;
  /**
   * How long a flow waiting for the user holds its collectibles (FLOW_HOLD_SECONDS, default 300): a
   * compose selection / consent, a box opening waiting for its signature, a transfer waiting for the
   * wallet. Meanwhile they cannot be listed or used by another flow; afterwards they are free again.
   */
  holdMs: number;
}

export const goodsFlowsEnv = {
  GIFTS_PER_DAY: intVar({ min: 0, default: 5 }),
  FLOW_HOLD_SECONDS: intVar({ min: 30, max: 3600, default: 300 }),
};

export function loadGoodsFlowsConfig(raw: NodeJS.ProcessEnv): GoodsFlowsConfig {
  const env = parseVars(z.object(goodsFlowsEnv), raw);
  return {
    giftsPerDay: env.GIFTS_PER_DAY,
    holdMs: env.FLOW_HOLD_SECONDS * 1000,
  };
}
