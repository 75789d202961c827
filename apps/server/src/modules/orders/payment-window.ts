import type { Lang } from '@cfx/contract/messages.ts';

/**
 * The payment window (PAYMENT_WINDOW_SECONDS) as createOrder's message states it: whole minutes as
 * minutes (5分钟 / 5 minutes), under two minutes as seconds (90秒 / 90 seconds), else minutes and
 * seconds (5分30秒 / 5 minutes 30 seconds) — exactly the time after which the order expires.
 */
export function paymentWindowText(ms: number, lang: Lang): string {
  const total = Math.max(1, Math.round(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  const en = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (s === 0) return lang === 'zh' ? `${m}分钟` : en(m, 'minute');
  if (total < 120) return lang === 'zh' ? `${total}秒` : en(total, 'second');
  return lang === 'zh' ? `${m}分${s}秒` : `${en(m, 'minute')} ${en(s, 'second')}`;
}
