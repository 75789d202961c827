import os from 'node:os';
import { describe, it } from 'vitest';
import { call } from './helpers.ts';
import { makeTrader, topup } from './market-helpers.ts';
import { buy, makeDrop, makeDropApp } from './drops-helpers.ts';

/**
 * A measurement, not a check (skipped unless BENCH_DROP_MICRO=1): the reservation path in one process
 * through app.inject — session, gate, admission, group commit — with M_INFLIGHT (256) requests in
 * flight over M_SUPPLY + 500 buyers (limit 2), retrying 1021 at once, until the first 1022. No HTTP
 * server, no job worker, no chain: it isolates what createOrder itself costs. bench/RESULTS.md
 * 'Reservations at speed' has its figures. Run:
 *   cd apps/server && BENCH_DROP_MICRO=1 [M_SUPPLY=1500] [M_ADMIT=256] npx vitest run test/drop-reserve-flood.test.ts
 */
const pct = (xs: number[], p: number) =>
  xs.sort((a, b) => a - b)[
    Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))
  ]!;
describe.runIf(process.env.BENCH_DROP_MICRO === '1')(
  'drop reservation flood (measurement)',
  () => {
    it('reservations through inject until sold out', async () => {
      const supply = Number(process.env.M_SUPPLY ?? 1500);
      const inflight = Number(process.env.M_INFLIGHT ?? 256);
      const app = await makeDropApp({
        DROP_MAX_IN_FLIGHT: process.env.M_ADMIT ?? '256',
        DROP_ATTEMPTS_PER_SECOND: '5',
      });
      try {
        const { projectId } = await makeDrop(app, {
          supply,
          perIdentityLimit: 2,
          maxPerOrder: 2,
        });
        const buyers: Awaited<ReturnType<typeof makeTrader>>[] = [];
        for (let i = 0; i < supply + 500; i++)
          buyers.push(await makeTrader(app));
        await buy(app, buyers[0]!, projectId, 1);
        const lat: number[] = [];
        const won: [Awaited<ReturnType<typeof makeTrader>>, string][] = [];
        const answers: Record<string, number> = {};
        let next = 1;
        let soldOut = false;
        const t0 = performance.now();
        await Promise.all(
          Array.from({ length: inflight }, async () => {
            while (!soldOut) {
              const u = buyers[next++ % buyers.length]!;
              const s = performance.now();
              const r = await buy(app, u, projectId, 1);
              lat.push(performance.now() - s);
              answers[r.status] = (answers[r.status] ?? 0) + 1;
              if (r.status === '000000') won.push([u, r.data.orderNo]);
              if (r.status === '1022') soldOut = true;
            }
          }),
        );
        const ms = performance.now() - t0;
        const n = lat.length;
        console.log(
          `MICRO supply ${supply} in-flight ${inflight} admit ${process.env.M_ADMIT ?? '256'}: sold out in ${ms.toFixed(0)} ms, ${n} attempts (${((n / ms) * 1000).toFixed(0)}/s), ${(((answers['000000'] ?? 0) / ms) * 1000).toFixed(0)} orders/s, p50 ${pct(lat, 50).toFixed(1)} p99 ${pct(lat, 99).toFixed(1)} ms, answers ${JSON.stringify(answers)}, load ${os
            .loadavg()
            .map((x) => x.toFixed(2))
            .join(' ')}`,
        );
        // Then every winner pays from its balance, the same number in flight (no job worker: fulfilment waits).
        for (const [u] of won) await topup(app, u, 10_000);
        const payLat: number[] = [];
        const payAnswers: Record<string, number> = {};
        let k = 0;
        const p0 = performance.now();
        await Promise.all(
          Array.from({ length: inflight }, async () => {
            while (k < won.length) {
              const [u, orderNo] = won[k++]!;
              const s = performance.now();
              const r = await call(
                app,
                '/payment/nftOrder/V1/pay',
                { orderNo, method: 'balance' },
                u.h,
              );
              payLat.push(performance.now() - s);
              payAnswers[r.status] = (payAnswers[r.status] ?? 0) + 1;
            }
          }),
        );
        const pms = performance.now() - p0;
        console.log(
          `MICRO pay: ${won.length} orders paid in ${pms.toFixed(0)} ms (${((won.length / pms) * 1000).toFixed(0)}/s), p50 ${pct(payLat, 50).toFixed(1)} p99 ${pct(payLat, 99).toFixed(1)} ms, answers ${JSON.stringify(payAnswers)}, load ${os
            .loadavg()
            .map((x) => x.toFixed(2))
            .join(' ')}`,
        );
      } finally {
        await app.close();
      }
    }, 300_000);
  },
);
