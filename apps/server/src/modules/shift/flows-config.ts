/** Settings of blind-box openings, compose and moving collectibles (docs/drops.md), read from the environment by config.ts. */
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

const int = (v: string | undefined, d: number) => {
  const n = v === undefined || v === '' ? NaN : Number(v);
  return Number.isFinite(n) ? Math.floor(n) : d;
};

export function loadGoodsFlowsConfig(env: NodeJS.ProcessEnv): GoodsFlowsConfig {
  return {
    giftsPerDay: Math.max(0, int(env.GIFTS_PER_DAY, 5)),
    holdMs: Math.max(30, Math.min(3600, int(env.FLOW_HOLD_SECONDS, 300))) * 1000,
  };
}
