import { describe, expect, it } from 'vitest';
import { interpolate } from '@cfx/contract/interpolate.ts';
import { formatMessage } from '@cfx/contract/messages.ts';
import { renderNotice } from '../src/modules/messages/render.ts';

/** The one interpolator (packages/contract/src/interpolate.ts) of server messages, notices and the web catalogues. */
describe('interpolate', () => {
  it('fills every occurrence of the same placeholder (formatMessage filled only the first)', () => {
    expect(interpolate('{n} of {n}', { n: 3 })).toBe('3 of 3');
    expect(interpolate('{{n}} / {{ n }}', { n: 3 }, { braces: 2 })).toBe('3 / 3');
  });

  it('fills two different placeholders, whatever their order in vars', () => {
    expect(interpolate('{min} to {max}', { max: 9, min: 1 })).toBe('1 to 9');
    expect(formatMessage('priceOutOfRange', 'en', { max: '¥9.00', min: '¥1.00' })).toBe('the price must be between ¥1.00 and ¥9.00');
    expect(formatMessage('priceOutOfRange', 'zh', { min: '¥1.00', max: '¥9.00' })).toBe('价格需在¥1.00至¥9.00之间');
  });

  it('inserts values as they are: no $ patterns, no second pass over an inserted value', () => {
    expect(formatMessage('priceOutOfRange', 'en', { min: '$&', max: "$'" })).toBe("the price must be between $& and $'");
    expect(interpolate('{a}{b}', { a: '{b}', b: 'x' })).toBe('{b}x');
  });

  it('a placeholder without a value stays as written (or becomes empty when asked); null and undefined values are empty', () => {
    expect(interpolate('{a} {b}', { a: 1 })).toBe('1 {b}');
    expect(interpolate('{a} {b}', { a: 1 }, { missing: 'empty' })).toBe('1 ');
    expect(interpolate('{a}|{b}', { a: null, b: undefined })).toBe('|');
    expect(interpolate('{{a}} {b}', { a: 1, b: 2 }, { braces: 2 })).toBe('1 {b}');
    expect(interpolate('no {placeholder here', { placeholder: 1 })).toBe('no {placeholder here');
    expect(interpolate('{toString}', {})).toBe('{toString}');
  });

  it('notices fill every placeholder too (unknown ones empty)', () => {
    const text = renderNotice('sold.body', { name: '星河', serial: 7, priceFen: 12_345, incomeFen: 11_000 }, 'en');
    expect(text).toBe('Your collectible "星河" #7 sold for ￥123.45; ￥110.00 after fees has been credited to your balance.');
    expect(renderNotice('sold.body', { name: '星河' }, 'en')).toBe('Your collectible "星河" # sold for ;  after fees has been credited to your balance.');
  });
});
