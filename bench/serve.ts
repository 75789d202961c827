// The server under benchmark: the real app (SQLite unless DATABASE_URL is set, test captcha so the
// bench can register users) plus a bare Fastify route in the same process as the baseline.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../apps/server/src/config.ts';
import { buildApp } from '../apps/server/src/app.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-bench-'));
// DEMO_DATA=1 DEMO_GOODS=N seeds the demo catalogue with N collectibles (off unless asked).
const config = loadConfig({ CHAIN: 'off', DEMO_DATA: '0', ...process.env, DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', SMS_DAILY_PER_IP: '100000', LOGIN_FAILURES_PER_IP: '100000' }, { dataDir, serveWeb: false });
const { app, ctx } = await buildApp(config, { logger: false });
app.post('/bench/bare', async () => ({ status: '000000', code: '000000', data: { ok: true }, message: 'ok', msg: 'ok' }));
app.get('/bench/bare', async () => ({ status: '000000', code: '000000', data: { ok: true }, message: 'ok', msg: 'ok' }));
// In-process time of search suggestions (no HTTP), so search latency can be told apart from client and scheduler noise.
app.post('/bench/search-timing', async (req) => {
  const { querySuggestions } = await import('../apps/server/src/modules/search/query-suggestions.ts');
  const { terms, rounds } = req.body as { terms: string[]; rounds: number };
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const text of terms) {
      const t0 = performance.now();
      await querySuggestions(ctx, text);
      ms.push(performance.now() - t0);
    }
  }
  return ms;
});
app.get('/bench/details-cache', async () => {
  const { goodsDetailCacheStats } = await import('../apps/server/src/modules/catalog/goods-detail-cache.ts');
  return goodsDetailCacheStats(ctx);
});
// CPU time of this process (µs), so a benchmark can report server CPU per request besides req/s.
app.get('/bench/cpu', async () => process.cpuUsage());
await app.listen({ port: 0, host: '127.0.0.1' });
const addr = app.server.address();
process.send?.({ port: typeof addr === 'object' && addr ? addr.port : 0 });
