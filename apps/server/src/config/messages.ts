import { z } from 'zod';
import { intVar, parseVars } from './vars.ts';

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

export const messagesEnv = {
  MESSAGE_ORDER_EXPIRING_SECONDS: intVar({ min: 0, max: 3600, default: 60 }),
  DROP_REMIND_MINUTES: intVar({ min: 0, max: 24 * 60, default: 10 }),
  MESSAGE_STREAMS_PER_USER: intVar({ min: 1, max: 100, default: 5 }),
};

export function loadMessagesConfig(raw: NodeJS.ProcessEnv): MessagesConfig {
  const env = parseVars(z.object(messagesEnv), raw);
  return {
    orderExpiringLeadMs: env.MESSAGE_ORDER_EXPIRING_SECONDS * 1000,
    dropRemindLeadMs: env.DROP_REMIND_MINUTES * 60_000,
    streamsPerUser: env.MESSAGE_STREAMS_PER_USER,
    heartbeatMs: 20_000,
    ticketTtlMs: 30_000,
    sweepMs: 5000,
    smsMaxAttempts: 8,
  };
}

/**
 * ALIYUN_SMS_NOTICE_TEMPLATES: `kind=TemplateCode` pairs, comma-separated (e.g.
 * `sold=SMS_1234,order_expiring=SMS_5678`); a kind without a template sends no SMS (marked skipped).
 * Returns undefined for text that is not such a list.
 */
export function parseNoticeTemplates(v: string | undefined): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const part of (v ?? '').split(',')) {
    if (!part.trim()) continue;
    const [k, code, extra] = part.split('=').map((x) => x.trim());
    if (!k || !code || extra !== undefined) return undefined;
    out[k] = code;
  }
  return out;
}
