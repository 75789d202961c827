import { describe, expect, it } from 'vitest';
import { ageOn, CHINA_OFFSET_MS, chinaDayNumber, chinaDayStart, chinaParts, DAY_MS, formatChinaDate, formatChinaDateTime, formatChinaIso, parseChinaDateTime } from '../src/china-time.ts';

/** 2026-01-02 00:00:00 in Beijing = 2026-01-01 16:00:00 UTC. */
const MIDNIGHT = Date.UTC(2026, 0, 1, 16, 0, 0);

describe('China time', () => {
  it('formats yyyy-MM-dd HH:mm:ss, without seconds, the date and ISO with +08:00', () => {
    const t = Date.UTC(2026, 10, 27, 7, 4, 5, 999); // 15:04:05.999 in Beijing
    expect(formatChinaDateTime(t)).toBe('2026-11-27 15:04:05');
    expect(formatChinaDateTime(t, { seconds: false })).toBe('2026-11-27 15:04');
    expect(formatChinaDate(t)).toBe('2026-11-27');
    expect(formatChinaIso(t)).toBe('2026-11-27T15:04:05+08:00');
    expect(chinaParts(t)).toEqual({ year: '2026', month: '11', day: '27', hour: '15', minute: '04', second: '05' });
  });

  it('the China date changes at 16:00 UTC, not at UTC midnight', () => {
    expect(formatChinaDateTime(MIDNIGHT - 1)).toBe('2026-01-01 23:59:59');
    expect(formatChinaDateTime(MIDNIGHT)).toBe('2026-01-02 00:00:00');
    expect(formatChinaDate(Date.UTC(2026, 0, 1, 23, 0))).toBe('2026-01-02'); // still 1 January in UTC
  });

  it('agrees with the time-zone database (Asia/Shanghai) on random instants of 1995-2060', () => {
    const tz = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    let seed = 42;
    const rnd = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 2000; i++) {
      const t = Date.UTC(1995, 0, 1) + Math.floor(rnd() * 65 * 365 * DAY_MS);
      expect(formatChinaDateTime(t)).toBe(tz.format(t));
    }
  });

  it('day start: midnight in Beijing of the instant, the same for every instant of that day', () => {
    expect(chinaDayStart(MIDNIGHT)).toBe(MIDNIGHT);
    expect(chinaDayStart(MIDNIGHT + DAY_MS - 1)).toBe(MIDNIGHT);
    expect(chinaDayStart(MIDNIGHT - 1)).toBe(MIDNIGHT - DAY_MS);
    expect(chinaDayNumber(MIDNIGHT) - chinaDayNumber(MIDNIGHT - 1)).toBe(1);
    expect(chinaDayNumber(-CHINA_OFFSET_MS)).toBe(0);
  });

  it('age on a date counts the birthday from midnight in Beijing', () => {
    const birth = { y: 2008, m: 1, d: 2 };
    expect(ageOn(birth, MIDNIGHT - 1)).toBe(17); // 2026-01-01 23:59:59 in Beijing (already 2 January in Tokyo, still 1 January in UTC)
    expect(ageOn(birth, MIDNIGHT)).toBe(18);
    expect(ageOn({ y: 2000, m: 2, d: 29 }, parseChinaDateTime('2018-02-28')!)).toBe(17);
    expect(ageOn({ y: 2000, m: 2, d: 29 }, parseChinaDateTime('2018-03-01')!)).toBe(18);
  });

  it('parses China-time text back to the instant, refusing what is not a date', () => {
    expect(parseChinaDateTime('2026-01-02')).toBe(MIDNIGHT);
    expect(parseChinaDateTime('2026-01-02 00:00')).toBe(MIDNIGHT);
    expect(parseChinaDateTime('2026-11-27T15:04:05')).toBe(Date.UTC(2026, 10, 27, 7, 4, 5));
    for (const bad of ['2026-02-30', '2026-13-01', '2026-01-02 24:00', '02/01/2026', '', '2026-01-02T10']) expect(parseChinaDateTime(bad)).toBeNull();
    const t = Date.UTC(2031, 5, 7, 3, 2, 1);
    expect(parseChinaDateTime(formatChinaDateTime(t))).toBe(t);
  });

  it('refuses what is no time instead of printing NaN', () => {
    expect(() => formatChinaDateTime(Number.NaN)).toThrow(RangeError);
    expect(() => formatChinaDate(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
