import { z } from 'zod';
import { numVar, parseVars } from './vars.ts';

/** Account cancellation and the personal-data export (README "Security and privacy"). */
export interface PrivacyConfig {
  /** ACCOUNT_CANCEL_COOLING_DAYS (default 15): days between a cancellation request and the anonymisation. */
  cancelCoolingMs: number;
  /** How often the worker looks for cancellations whose cooling-off period ended (1 minute). */
  cancelSweepMs: number;
  /** A data-export link is valid this long (15 minutes). */
  exportLinkTtlMs: number;
  /** One export per user per this window (24 hours). */
  exportIntervalMs: number;
}

const DAY_MS = 24 * 3600_000;

export const privacyEnv = {
  /** Days, a decimal allowed (0–365). */
  ACCOUNT_CANCEL_COOLING_DAYS: numVar({ min: 0, max: 365, default: 15 }),
};

export function loadPrivacyConfig(raw: NodeJS.ProcessEnv): PrivacyConfig {
  const env = parseVars(z.object(privacyEnv), raw);
  return {
    cancelCoolingMs: env.ACCOUNT_CANCEL_COOLING_DAYS * DAY_MS,
    cancelSweepMs: 60_000,
    exportLinkTtlMs: 15 * 60_000,
    exportIntervalMs: DAY_MS,
  };
}
