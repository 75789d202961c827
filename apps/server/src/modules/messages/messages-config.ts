/** The message center's settings (README "Messages"). */
export interface MessagesConfig {
  /** MESSAGE_ORDER_EXPIRING_SECONDS (default 60): the buyer is told this long before an unpaid order's payment window ends. */
  orderExpiringLeadMs: number;
  /** DROP_REMIND_MINUTES (default 10): "remind me" subscribers are told this long before a release's sale start. */
  dropRemindLeadMs: number;
  /** MESSAGE_STREAMS_PER_USER (default 5): open SSE streams one user may hold on one server process. */
  streamsPerUser: number;
  /** SSE heartbeat comment interval (also when the stream re-checks its session): 20 s. */
  heartbeatMs: number;
  /** A stream ticket is valid this long, once: 30 s. */
  ticketTtlMs: number;
  /** How often the order-expiring and reminder sweeps run: 5 s. */
  sweepMs: number;
  /** SMS attempts of one message before it is marked failed: 8. */
  smsMaxAttempts: number;
}

const int = (v: string | undefined, d: number) => {
  const n = v === undefined || v === '' ? NaN : Number(v);
  return Number.isFinite(n) ? n : d;
};

export function loadMessagesConfig(env: NodeJS.ProcessEnv): MessagesConfig {
  return {
    orderExpiringLeadMs: Math.max(0, Math.min(3600, int(env.MESSAGE_ORDER_EXPIRING_SECONDS, 60))) * 1000,
    dropRemindLeadMs: Math.max(0, Math.min(24 * 60, int(env.DROP_REMIND_MINUTES, 10))) * 60_000,
    streamsPerUser: Math.max(1, Math.min(100, int(env.MESSAGE_STREAMS_PER_USER, 5))),
    heartbeatMs: 20_000,
    ticketTtlMs: 30_000,
    sweepMs: 5000,
    smsMaxAttempts: 8,
  };
}

/**
 * ALIYUN_SMS_NOTICE_TEMPLATES: `kind=TemplateCode` pairs, comma-separated (e.g.
 * `sold=SMS_1234,order_expiring=SMS_5678`); a kind without a template sends no SMS (marked skipped).
 */
export function parseNoticeTemplates(v: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (v ?? '').split(',')) {
    const [k, code] = part.split('=').map((x) => x.trim());
    if (k && code) out[k] = code;
  }
  return out;
}
