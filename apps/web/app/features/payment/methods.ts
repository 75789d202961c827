import type { PayMethod } from './api/types.ts';

/** Preference when several methods are available: the sandbox cashier (default), Alipay, WeChat Pay, the platform balance, a bound bank card. */
export const METHOD_ORDER: readonly PayMethod[] = ['sandbox', 'alipay', 'wechat', 'balance', 'card'];

/** The method to pre-select: `preferred` when available, else the first of METHOD_ORDER that is. */
export function defaultMethod(methods: readonly PayMethod[], preferred?: PayMethod | null): PayMethod | null {
  if (preferred && methods.includes(preferred)) return preferred;
  return METHOD_ORDER.find((m) => methods.includes(m)) ?? null;
}
