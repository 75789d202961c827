/** The payment-method choice with bank cards (docs/payouts.md "Paying with a bank card"). */
import { describe, expect, it } from 'vitest';
import { METHOD_ORDER, defaultMethod } from '../app/features/payment/methods.ts';
import { zh } from '../app/i18n/zh.ts';
import { en } from '../app/i18n/en.ts';

describe('bank card among the payment methods', () => {
  it('is offered last: never pre-selected over another method, chosen when preferred or alone', () => {
    expect(METHOD_ORDER.at(-1)).toBe('card');
    expect(defaultMethod(['sandbox', 'balance', 'card'])).toBe('sandbox');
    expect(defaultMethod(['balance', 'card'])).toBe('balance');
    expect(defaultMethod(['balance', 'card'], 'card')).toBe('card');
    expect(defaultMethod(['card'])).toBe('card');
  });
  it('has its texts in both catalogs', () => {
    expect(zh.payment.methods.card.name).toBe('银行卡');
    expect(en.payment.methods.card.name).toBe('Bank card');
    expect(Object.keys(zh.payment.card).sort()).toEqual(Object.keys(en.payment.card).sort());
  });
});
