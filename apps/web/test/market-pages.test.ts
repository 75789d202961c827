/** Pure parts of the market pages: real-name checks, the /sales URL, money inputs, order states, payment defaults. */
import { describe, expect, it } from 'vitest';
import { yuanToFen } from '@cfx/protocol/money.ts';
import { checkDigit, validateIdNumber, validateName } from '../app/features/realname/validate.ts';
import { parseMarketParams, priceRangeError } from '../app/features/market/market-query.ts';
import { fenToYuanText, yuanTextToFen } from '../app/features/market/money-input.ts';
import { progressIndex } from '../app/lib/orders/status.ts';
import { defaultMethod } from '../app/features/payment/methods.ts';

/** A valid GB 11643 number for a birth date (Beijing, region 110101). */
function idFor(birth: string, seq = '123'): string {
  const first17 = `110101${birth}${seq}`;
  return first17 + checkDigit(first17);
}

const NOW = Date.UTC(2026, 5, 15, 4); // 2026-06-15 12:00 Beijing

describe('real-name form', () => {
  it('names: Chinese 2-20 (with ·) or Latin', () => {
    expect(validateName('')).toBe('nameEmpty');
    expect(validateName('  ')).toBe('nameEmpty');
    expect(validateName('张')).toBe('nameInvalid');
    expect(validateName('张三')).toBeNull();
    expect(validateName('阿卜杜·热合曼')).toBeNull();
    expect(validateName('John Smith')).toBeNull();
    expect(validateName('张3')).toBe('nameInvalid');
  });
  it('ID numbers: length, format, real date, checksum, 18+', () => {
    expect(validateIdNumber('', NOW)).toBe('idEmpty');
    expect(validateIdNumber('11010119900101123', NOW)).toBe('idLength');
    expect(validateIdNumber('99010119900101123X', NOW)).toBe('idFormat'); // no such province
    expect(validateIdNumber(idFor('19900230'), NOW)).toBe('idFormat'); // 30 February
    const good = idFor('19900101');
    expect(validateIdNumber(good, NOW)).toBeNull();
    expect(validateIdNumber(` ${good.slice(0, 6)} ${good.slice(6)} `.toLowerCase(), NOW)).toBeNull();
    const wrong = good.slice(0, 17) + (good[17] === '0' ? '1' : '0');
    expect(validateIdNumber(wrong, NOW)).toBe('idChecksum');
    // 18 on 2026-06-15 (Beijing): born 2008-06-15 is 18 today, 2008-06-16 is not yet.
    expect(validateIdNumber(idFor('20080615'), NOW)).toBeNull();
    expect(validateIdNumber(idFor('20080616'), NOW)).toBe('underage');
  });
  it('the check character X', () => {
    // find a sequence whose check character is X
    const seq = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0')).find((s) => checkDigit(`11010119900101${s}`) === 'X')!;
    expect(validateIdNumber(`11010119900101${seq}X`, NOW)).toBeNull();
    expect(validateIdNumber(`11010119900101${seq}x`, NOW)).toBeNull();
  });
});

describe('/sales query', () => {
  const p = (q: string) => parseMarketParams(new URLSearchParams(q));
  it('defaults', () => {
    expect(p('')).toEqual({ page: 1, sort: 'default', min: '', max: '', projectId: undefined, minFen: undefined, maxFen: undefined });
  });
  it('yuan → fen, release, sort, page; bad values ignored; a reversed range swapped', () => {
    expect(p('project=3&min=1.5&max=200&sort=priceAsc&page=2')).toMatchObject({ projectId: 3, minFen: 150, maxFen: 20_000, sort: 'priceAsc', page: 2 });
    expect(p('project=x&min=abc&max=-1&sort=evil&page=0')).toMatchObject({ projectId: undefined, minFen: undefined, maxFen: undefined, sort: 'default', page: 1 });
    expect(p('min=500&max=100')).toMatchObject({ minFen: 10_000, maxFen: 50_000 });
    expect(p('min=0.001')).toMatchObject({ minFen: undefined });
  });
  it('the form check', () => {
    expect(priceRangeError('', '')).toBeNull();
    expect(priceRangeError('10', '')).toBeNull();
    expect(priceRangeError('1.234', '')).toBe('minInvalid');
    expect(priceRangeError('', 'x')).toBe('maxInvalid');
    expect(priceRangeError('20', '10')).toBe('order');
    expect(priceRangeError('10', '10')).toBeNull();
  });
});

describe('money inputs', () => {
  it('agree with @cfx/protocol yuanToFen on non-negative amounts', () => {
    for (const s of ['0', '1', '1.5', '1.05', '1,234.56', '￥12', '¥0.01', ' 99.9 ', '1.', '1.234', 'abc', '', '-1', '12e3']) {
      const ref = yuanToFen(s);
      expect(yuanTextToFen(s), s).toBe(ref !== null && ref >= 0 && !s.includes('-') ? ref : null);
    }
  });
  it('fen → yuan text', () => {
    expect(fenToYuanText(123_456)).toBe('1234.56');
    expect(fenToYuanText(5)).toBe('0.05');
    expect(fenToYuanText(0)).toBe('0.00');
  });
});

describe('order states', () => {
  it('progress stage', () => {
    expect(progressIndex('created')).toBe(0);
    expect(progressIndex('paying')).toBe(0);
    expect(progressIndex('paid')).toBe(1);
    expect(progressIndex('settling')).toBe(2);
    expect(progressIndex('completed')).toBe(3);
    expect(progressIndex('refunded', [{ status: 'created' }, { status: 'paid' }, { status: 'settling' }, { status: 'refunded' }])).toBe(2);
    expect(progressIndex('expired', [{ status: 'created' }, { status: 'expired' }])).toBe(0);
  });
  it('payment method default: sandbox, then Alipay, then balance; the order’s own method first', () => {
    expect(defaultMethod(['sandbox', 'balance'])).toBe('sandbox');
    expect(defaultMethod(['alipay', 'balance'])).toBe('alipay');
    expect(defaultMethod(['balance'])).toBe('balance');
    expect(defaultMethod(['sandbox', 'alipay', 'balance'], 'alipay')).toBe('alipay');
    expect(defaultMethod(['sandbox', 'balance'], 'alipay')).toBe('sandbox');
    expect(defaultMethod([])).toBeNull();
  });
});
