/** Settings of the primary sale (drops, docs/drops.md), read from the environment by config.ts. */
export interface DropsConfig {
  /** Units one real-name identity may buy of a release without its own drop_config row (DROP_PER_IDENTITY_LIMIT, default 5). */
  perIdentityLimit: number;
  /** Most units one drop order may take without a drop_config row (DROP_MAX_PER_ORDER, default 5). */
  maxPerOrder: number;
  /** Platform commission on a primary sale, per mille of the order total (PRIMARY_COMMISSION_PERMILLE, default 100 = 10%); the creator gets the rest. */
  commissionPermille: number;
  /** Reservations of one release running at once in one process (DROP_MAX_IN_FLIGHT, default 16); beyond it buyers get 1021 排队中. */
  maxInFlight: number;
  /** createOrder attempts for drops per user and per real-name identity per second (DROP_ATTEMPTS_PER_SECOND, default 5). */
  attemptsPerSecond: number;
  /** The Retry-After hint of a queueing answer (DROP_RETRY_AFTER_MS, default 1000). */
  retryAfterMs: number;
  /** How old the in-memory stock of a release may be (DROP_STOCK_CACHE_MS, default 1000). */
  stockCacheMs: number;
  /** Tokens per mintBatch transaction of the mint job (MINT_BATCH_SIZE, default 50). */
  mintBatchSize: number;
  /** Failed single mints after which a drop unit is refunded instead (DROP_MINT_MAX_FAILURES, default 5; one retry a minute). */
  mintMaxFailures: number;
}

const int = (v: string | undefined, d: number) => {
  const n = v === undefined || v === '' ? NaN : Number(v);
  return Number.isFinite(n) ? Math.floor(n) : d;
};

export function loadDropsConfig(env: NodeJS.ProcessEnv): DropsConfig {
  return {
    perIdentityLimit: Math.max(1, int(env.DROP_PER_IDENTITY_LIMIT, 5)),
    maxPerOrder: Math.max(1, int(env.DROP_MAX_PER_ORDER, 5)),
    commissionPermille: Math.max(0, Math.min(1000, int(env.PRIMARY_COMMISSION_PERMILLE, 100))),
    maxInFlight: Math.max(1, int(env.DROP_MAX_IN_FLIGHT, 16)),
    attemptsPerSecond: Math.max(1, int(env.DROP_ATTEMPTS_PER_SECOND, 5)),
    retryAfterMs: Math.max(100, int(env.DROP_RETRY_AFTER_MS, 1000)),
    stockCacheMs: Math.max(0, Math.min(1000, int(env.DROP_STOCK_CACHE_MS, 1000))),
    mintBatchSize: Math.max(1, Math.min(200, int(env.MINT_BATCH_SIZE, 50))),
    mintMaxFailures: Math.max(1, int(env.DROP_MINT_MAX_FAILURES, 5)),
  };
}
