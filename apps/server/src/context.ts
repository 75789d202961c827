import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { SmsProvider } from './providers/sms/types.ts';
import type { CaptchaProvider } from './providers/captcha/types.ts';
import type { Chain } from './chain/chain-service.ts';
import type { KycProvider } from './providers/kyc/types.ts';
import type { SecretBox } from './util/secret-box.ts';
import type { JobRunner } from './jobs/runner.ts';
import type { StorageProvider } from './providers/storage/types.ts';

/**
 * What every module gets: configuration, the database, the providers, the job worker and two
 * clocks that are never mixed (tests move both). A module adds its own live parts by declaration
 * merging (modules/market/runtime.ts adds `market`), so this file imports no module.
 * The clocks:
 * - `now()` — business time: wall-clock epoch milliseconds (Date.now by default). Everything stored
 *   or shown uses it: code and session expiry, rate-limit windows, sale windows, order payment
 *   windows, serverTime. Tests set it to any instant, also backwards.
 * - `monotonicNow()` — cache time: milliseconds from an arbitrary origin that never go back
 *   (performance.now by default, see systemMonotonicNow). It decides only in-memory freshness:
 *   cache lifetimes, refresh and poll intervals of the catalog caches, the release map and the
 *   search index. It is never stored and never compared with business time. Tests advance it
 *   instead of sleeping until a cache expires.
 */
export interface AppContext {
  config: Config;
  db: Db;
  sms: SmsProvider;
  captcha: CaptchaProvider;
  kyc: KycProvider;
  /** Encryption of personal data at rest. */
  secrets: SecretBox;
  /** Uploaded files (STORAGE_PROVIDER: DATA_DIR/uploads or an S3-compatible bucket). */
  storage: StorageProvider;
  /** The chain side (node, contracts, operator queue, indexer); undefined with CHAIN=off. */
  chain?: Chain;
  /**
   * The durable job worker (jobs/runner.ts), created at start-up by buildApp: every module attaches
   * the handlers of its job definitions (jobs/define-job.ts) and its sweeps here; the worker role
   * (worker-role.ts) starts it once all are attached.
   */
  jobs: JobRunner;
  /** Business time (wall clock, epoch ms); see above. */
  now(): number;
  /** Cache time (monotonic ms, arbitrary origin); see above. */
  monotonicNow(): number;
}

/** The production cache clock: monotonic, unaffected by wall-clock adjustments. */
export const systemMonotonicNow = (): number => performance.now();
