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

export function loadPrivacyConfig(env: NodeJS.ProcessEnv): PrivacyConfig {
  const raw = env.ACCOUNT_CANCEL_COOLING_DAYS;
  const days = raw === undefined || raw === '' ? NaN : Number(raw);
  return {
    cancelCoolingMs: (Number.isFinite(days) && days >= 0 ? Math.min(days, 365) : 15) * DAY_MS,
    cancelSweepMs: 60_000,
    exportLinkTtlMs: 15 * 60_000,
    exportIntervalMs: DAY_MS,
  };
}
