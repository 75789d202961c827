/**
 * The lightweight-charts part of the console's sales charts: its own chunk, imported by
 * sales-charts.tsx in the browser only (never during SSR, never in a public page's bundle).
 */
import { ColorType, createChart, HistogramSeries, LineSeries, type IChartApi } from 'lightweight-charts';
import type { SalesDay } from '@cfx/contract/admin.ts';

const base = (locale: string) => ({
  autoSize: true,
  layout: { background: { type: ColorType.Solid, color: 'transparent' }, textColor: '#646e7b', fontSize: 11, attributionLogo: false },
  grid: { vertLines: { visible: false }, horzLines: { color: '#e5e6eb' } },
  rightPriceScale: { borderVisible: false },
  timeScale: { borderVisible: false },
  localization: { locale },
});

/** GMV per day in yuan: total, primary and resale as three lines. */
export function drawGmv(el: HTMLElement, days: SalesDay[], locale: string, labels: { total: string; primary: string; resale: string }): () => void {
  const chart: IChartApi = createChart(el, base(locale));
  const yuan = (fen: number) => fen / 100;
  const lines: [string, string, (d: SalesDay) => number][] = [
    [labels.total, '#5b4cf0', (d) => d.gmvFen],
    [labels.primary, '#f5b942', (d) => d.primaryFen],
    [labels.resale, '#16a34a', (d) => d.resaleFen],
  ];
  for (const [title, color, pick] of lines) {
    chart.addSeries(LineSeries, { color, lineWidth: 2, title, priceFormat: { type: 'price', precision: 2, minMove: 0.01 } }).setData(days.map((d) => ({ time: d.day, value: yuan(pick(d)) })));
  }
  chart.timeScale().fitContent();
  return () => chart.remove();
}

/** Orders per day as bars. */
export function drawOrders(el: HTMLElement, days: SalesDay[], locale: string, label: string): () => void {
  const chart: IChartApi = createChart(el, base(locale));
  chart
    .addSeries(HistogramSeries, { color: '#5b4cf0', title: label, priceFormat: { type: 'volume' } })
    .setData(days.map((d) => ({ time: d.day, value: d.orders })));
  chart.timeScale().fitContent();
  return () => chart.remove();
}
