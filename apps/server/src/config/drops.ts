import { z } from 'zod';
import { intVar, parseVars } from './vars.ts';

/** Settings of the primary sale (drops, docs/drops.md). */
export interface DropsConfig {
  /** Units one real-name identity may buy of a release without its own drop_config row (DROP_PER_IDENTITY_LIMIT, default 5). */
  perIdentityLimit: number;
  /** Most units one drop order may take without a drop_config row (DROP_MAX_PER_ORDER, default 5). */
  maxPerOrder: number;
  /** Platform commission on a primary sale, per mille of the order total (PRIMARY_COMMISSION_PERMILLE, default 100 = 10%); the creator gets the rest. */
  commissionPermille: number;
  /** Reservations of one release running at once in one process (DROP_MAX_IN_FLIGHT, default 256: they wait for or share the release's group commit, one transaction at a time); beyond it buyers get 1021 排队中. */
  maxInFlight: number;
  /** createOrder attempts for drops per user and per real-name identity per second (DROP_ATTEMPTS_PER_SECOND, default 5). */
  attemptsPerSecond: number;
  /** The Retry-After hint of a queueing answer (DROP_RETRY_AFTER_MS, default 1000). */
  retryAfterMs: number;
  /** How old the in-memory stock of a release may be (DROP_STOCK_CACHE_MS, default 1000). */
  stockCacheMs: number;
  /** Tokens per mintBatch transaction of the mint job (MINT_BATCH_SIZE, default 50). */
  mintBatchSize: number;
  /**
   * How long past its due time the fulfilment of a paid drop order may wait while this process is
   * admitting reservations (DROP_FULFIL_HOLD_MS, default 15000; 0 = never held): during a sale's
   * flood the worker's fulfilment and minting leave the event loop and the write lock to the buyers —
   * for a whole sale that sells out within the 15 s, minting right after it.
   */
  fulfilHoldMs: number;
  /** Failed single mints after which a drop unit is refunded instead (DROP_MINT_MAX_FAILURES, default 5; one retry a minute). */
  mintMaxFailures: number;
  /**
   * The warm-up before a sale (drops/warm-up.ts): this long before a release's sale or first phase starts
   * (DROP_WARM_BEFORE_MS, default 10000; 0 = off), each serving process loads the sessions and trading gates
   * of the buyers last seen within DROP_WARM_SEEN_MS (default 3600000), the DROP_WARM_MAX (default 100000)
   * most recent, so the flood's first calls need no lookup.
   */
  warm: { beforeMs: number; seenMs: number; max: number };
}

export const dropsEnv = {
  DROP_PER_IDENTITY_LIMIT: intVar({ min: 1, default: 5 }),
  DROP_MAX_PER_ORDER: intVar({ min: 1, default: 5 }),
  PRIMARY_COMMISSION_PERMILLE: intVar({ min: 0, max: 1000, default: 100 }),
  DROP_MAX_IN_FLIGHT: intVar({ min: 1, default: 256 }),
  DROP_ATTEMPTS_PER_SECOND: intVar({ min: 1, default: 5 }),
  DROP_RETRY_AFTER_MS: intVar({ min: 100, default: 1000 }),
  DROP_STOCK_CACHE_MS: intVar({ min: 0, max: 1000, default: 1000 }),
  MINT_BATCH_SIZE: intVar({ min: 1, max: 200, default: 50 }),
  DROP_MINT_MAX_FAILURES: intVar({ min: 1, default: 5 }),
  DROP_FULFIL_HOLD_MS: intVar({ min: 0, max: 60_000, default: 15_000 }),
  DROP_WARM_BEFORE_MS: intVar({ min: 0, max: 50_000, default: 10_000 }),
  DROP_WARM_SEEN_MS: intVar({ min: 0, default: 3_600_000 }),
  DROP_WARM_MAX: intVar({ min: 0, max: 200_000, default: 100_000 }),
};

export function loadDropsConfig(raw: NodeJS.ProcessEnv): DropsConfig {
  const env = parseVars(z.object(dropsEnv), raw);
  return {
    perIdentityLimit: env.DROP_PER_IDENTITY_LIMIT,
    maxPerOrder: env.DROP_MAX_PER_ORDER,
    commissionPermille: env.PRIMARY_COMMISSION_PERMILLE,
    maxInFlight: env.DROP_MAX_IN_FLIGHT,
    attemptsPerSecond: env.DROP_ATTEMPTS_PER_SECOND,
    retryAfterMs: env.DROP_RETRY_AFTER_MS,
    stockCacheMs: env.DROP_STOCK_CACHE_MS,
    mintBatchSize: env.MINT_BATCH_SIZE,
    mintMaxFailures: env.DROP_MINT_MAX_FAILURES,
    fulfilHoldMs: env.DROP_FULFIL_HOLD_MS,
    warm: { beforeMs: env.DROP_WARM_BEFORE_MS, seenMs: env.DROP_WARM_SEEN_MS, max: env.DROP_WARM_MAX },
  };
}
