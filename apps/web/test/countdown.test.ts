import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { Countdown, DeadlineCountdown, type CountdownVariant } from '../app/components/countdown/countdown.tsx';
import { countdownParts, msToNextSecond, secondsLeft } from '../app/components/countdown/split.ts';
import { I18nContext, createI18n } from '../app/i18n/index.ts';
import { en } from '../app/i18n/en.ts';
import { zh } from '../app/i18n/zh.ts';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/<!-- -->/g, '');
const render = (ms: number, variant: CountdownVariant = 'inline', lang: 'zh' | 'en' = 'zh') =>
  renderToString(createElement(I18nContext, { value: createI18n(lang, lang === 'zh' ? zh : en) }, createElement(Countdown, { ms, variant })));

describe('the one countdown splitter: seconds rounded UP', () => {
  it('999 ms left is 1 s, never 0 before the moment', () => {
    expect(secondsLeft(999)).toBe(1);
    expect(secondsLeft(1)).toBe(1);
    expect(countdownParts(999)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 1 });
  });
  it('exact seconds stay as they are; a millisecond more is the next second', () => {
    expect(secondsLeft(3000)).toBe(3);
    expect(secondsLeft(3001)).toBe(4);
    expect(countdownParts(D + 2 * H + 3 * M + 4 * S)).toEqual({ days: 1, hours: 2, minutes: 3, seconds: 4 });
    expect(countdownParts(59 * S + 1)).toEqual({ days: 0, hours: 0, minutes: 1, seconds: 0 });
    expect(countdownParts(299_999)).toEqual({ days: 0, hours: 0, minutes: 5, seconds: 0 });
  });
  it('0 at the moment and after it (past, NaN)', () => {
    for (const ms of [0, -1, -5000, Number.NaN, Number.NEGATIVE_INFINITY]) {
      expect(secondsLeft(ms)).toBe(0);
      expect(countdownParts(ms)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
    }
  });
  it('ticks when the time left crosses the next whole second', () => {
    expect(msToNextSecond(2500)).toBe(500);
    expect(msToNextSecond(3000)).toBe(1000);
    expect(msToNextSecond(999)).toBe(999);
    expect(msToNextSecond(0)).toBe(0);
    expect(msToNextSecond(-20)).toBe(0);
  });
});

describe('<Countdown>', () => {
  it('inline: 1天02时03分04秒 (days as they are, the rest two digits), English d/h/m/s', () => {
    expect(text(render(D + 2 * H + 3 * M + 4 * S))).toBe('1天02时03分04秒');
    expect(text(render(12 * D + 23 * H + 59 * M + 59 * S))).toBe('12天23时59分59秒');
    expect(text(render(5 * S, 'inline', 'en'))).toBe('0d 00h 00m 05s');
  });
  it('999 ms left reads 1 s in every variant; the past reads 0', () => {
    expect(text(render(999))).toBe('0天00时00分01秒');
    expect(text(render(999, 'tiles'))).toBe('0天00时00分01秒');
    expect(text(render(999, 'cells'))).toBe('00分01秒');
    expect(text(render(-3000))).toBe('0天00时00分00秒');
  });
  it('cells leave out 0 days and hours; tiles keep every part', () => {
    expect(text(render(4 * M + 59 * S + 1, 'cells'))).toBe('05分00秒');
    expect(text(render(H + 1, 'cells'))).toBe('01时00分01秒');
    expect(text(render(D, 'cells', 'en'))).toBe('01d00h00m00s');
    expect(render(D, 'tiles')).toContain('bg-night');
  });
  it('carries the ms left (never negative) and role timer', () => {
    const html = render(1234);
    expect(html).toContain('data-testid="countdown"');
    expect(html).toContain('data-ms="1234"');
    expect(html).toContain('role="timer"');
    expect(render(-50)).toContain('data-ms="0"');
  });
  it('DeadlineCountdown counts to a deadline on the browser clock', () => {
    const html = renderToString(
      createElement(I18nContext, { value: createI18n('zh', zh) }, createElement(DeadlineCountdown, { deadline: Date.now() + 90 * S + 500, testId: 'pay-countdown' })),
    );
    expect(html).toContain('data-testid="pay-countdown"');
    expect(text(html)).toBe('01分31秒');
  });
});
