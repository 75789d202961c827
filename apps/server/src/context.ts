import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { SmsProvider } from './providers/sms/types.ts';
import type { CaptchaProvider } from './providers/captcha/types.ts';
import type { Chain } from './chain/chain-service.ts';

/** What every module gets: configuration, the database, the providers and a clock (tests move it). */
export interface AppContext {
  config: Config;
  db: Db;
  sms: SmsProvider;
  captcha: CaptchaProvider;
  /** The chain side (node, contracts, operator queue, indexer); undefined with CHAIN=off. */
  chain?: Chain;
  now(): number;
}
