import { describe, expect, it } from 'vitest';
import { fenToYuanString, formatFen, yuanToFen } from '../src/money.ts';

describe('formatFen', () => {
  it('formats with thousands separators, two decimals and ￥', () => {
    expect(formatFen(0)).toBe('￥0.00');
    expect(formatFen(5)).toBe('￥0.05');
    expect(formatFen(99)).toBe('￥0.99');
    expect(formatFen(100)).toBe('￥1.00');
    expect(formatFen(123456)).toBe('￥1,234.56');
    expect(formatFen(100000000)).toBe('￥1,000,000.00');
    expect(formatFen(-123456)).toBe('-￥1,234.56');
    expect(formatFen(12345678901234567890n)).toBe('￥123,456,789,012,345,678.90');
    expect(formatFen('990')).toBe('￥9.90');
  });

  it('shows nothing for empty values', () => {
    expect(formatFen(null)).toBe('');
    expect(formatFen(undefined)).toBe('');
    expect(formatFen('')).toBe('');
  });

  it('supports another symbol or none', () => {
    expect(formatFen(123456, { symbol: '' })).toBe('1,234.56');
    expect(formatFen(123456, { symbol: '¥', separator: '' })).toBe('¥1234.56');
    expect(fenToYuanString(123456)).toBe('1234.56');
    expect(fenToYuanString(undefined)).toBe('');
  });

  it('rejects fractional fen', () => {
    expect(() => formatFen(1.5)).toThrow(RangeError);
    expect(() => formatFen(Number.NaN)).toThrow(RangeError);
    expect(() => formatFen('12.5')).toThrow(RangeError);
  });
});

describe('yuanToFen', () => {
  it('parses user input', () => {
    expect(yuanToFen('12')).toBe(1200);
    expect(yuanToFen('12.3')).toBe(1230);
    expect(yuanToFen('0.05')).toBe(5);
    expect(yuanToFen(' ￥1,234.56 ')).toBe(123456);
    expect(yuanToFen('-0')).toBe(0);
    expect(yuanToFen('-1.5')).toBe(-150);
  });

  it('rejects invalid amounts', () => {
    for (const bad of ['', 'abc', '1.234', '1.2.3', '.5', '1e3']) expect(yuanToFen(bad)).toBeNull();
  });
});
