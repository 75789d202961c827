/**
 * Price history as a chart series (pure, unit-tested): seconds on the time axis, strictly
 * increasing (several trades in one second keep the last), shifted to Beijing time because the
 * chart library labels its axis in UTC.
 */
import { CHINA_OFFSET_MS } from '@cfx/protocol/china-time.ts';
import type { PricePoint } from './api/types.ts';

export const CST_OFFSET_S = CHINA_OFFSET_MS / 1000;

export interface SeriesPoint {
  time: number;
  value: number;
}

export function toSeries(points: PricePoint[]): SeriesPoint[] {
  const sorted = [...points].filter((p) => Number.isFinite(p.at) && Number.isFinite(p.priceFen)).sort((a, b) => a.at - b.at);
  const out: SeriesPoint[] = [];
  for (const p of sorted) {
    const time = Math.floor(p.at / 1000) + CST_OFFSET_S;
    const last = out[out.length - 1];
    if (last && last.time === time) last.value = p.priceFen;
    else out.push({ time, value: p.priceFen });
  }
  return out;
}

/** Highest, lowest and latest price (fen) of a history; null when empty. */
export function priceStats(points: PricePoint[]): { high: number; low: number; last: number } | null {
  if (points.length === 0) return null;
  const latest = points.reduce((a, b) => (b.at >= a.at ? b : a));
  const prices = points.map((p) => p.priceFen);
  return { high: Math.max(...prices), low: Math.min(...prices), last: latest.priceFen };
}
