import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { SmsProvider } from './providers/sms/types.ts';
import type { CaptchaProvider } from './providers/captcha/types.ts';
import type { Chain } from './chain/chain-service.ts';
import type { KycProvider } from './providers/kyc/types.ts';
import type { SecretBox } from './util/secret-box.ts';
import type { MarketRuntime } from './modules/market/runtime.ts';

/** What every module gets: configuration, the database, the providers and a clock (tests move it). */
export interface AppContext {
  config: Config;
  db: Db;
  sms: SmsProvider;
  captcha: CaptchaProvider;
  kyc: KycProvider;
  /** Encryption of personal data at rest. */
  secrets: SecretBox;
  /** The chain side (node, contracts, operator queue, indexer); undefined with CHAIN=off. */
  chain?: Chain;
  /** The consignment market's chain side, payment providers and job worker (modules/market/start-market.ts). */
  market?: MarketRuntime;
  now(): number;
}
