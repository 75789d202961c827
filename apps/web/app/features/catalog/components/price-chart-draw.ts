/**
 * The lightweight-charts part of the price chart: its own chunk, imported by price-chart.tsx in
 * the browser only (never during SSR, never in the initial bundle).
 */
import { AreaSeries, ColorType, createChart, type UTCTimestamp } from 'lightweight-charts';
import { formatFen } from '@cfx/protocol/money.ts';
import type { SeriesPoint } from '../price-series.ts';

const pad = (n: number) => String(n).padStart(2, '0');
/** The series times are already shifted to Beijing time, so UTC getters print Beijing time. */
function label(time: number, withTime: boolean): string {
  const d = new Date(time * 1000);
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  return withTime ? `${date} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}` : date;
}

export function drawPriceChart(el: HTMLElement, series: SeriesPoint[], locale: string): () => void {
  const chart = createChart(el, {
    autoSize: true,
    layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: '#646e7b', fontSize: 11, attributionLogo: false },
    grid: { vertLines: { visible: false }, horzLines: { color: '#e5e6eb' } },
    rightPriceScale: { borderVisible: false },
    timeScale: { borderVisible: false, timeVisible: true, tickMarkFormatter: (t: unknown) => label(Number(t), false).slice(5) },
    localization: {
      locale,
      priceFormatter: (v: number) => formatFen(Math.round(v)),
      timeFormatter: (t: unknown) => label(Number(t), true),
    },
    handleScroll: false,
    handleScale: false,
  });
  const area = chart.addSeries(AreaSeries, {
    lineColor: '#5b4cf0',
    topColor: 'rgba(91, 76, 240, 0.28)',
    bottomColor: 'rgba(91, 76, 240, 0.02)',
    lineWidth: 2,
    priceFormat: { type: 'custom', formatter: (v: number) => formatFen(Math.round(v)), minMove: 1 },
  });
  area.setData(series.map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
  chart.timeScale().fitContent();
  return () => chart.remove();
}
