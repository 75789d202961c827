// The server under benchmark: the real app (SQLite unless DATABASE_URL is set, test captcha so the
// bench can register users) plus a bare Fastify route in the same process as the baseline.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../apps/server/src/config.ts';
import { buildApp } from '../apps/server/src/app.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-bench-'));
const config = loadConfig({ CHAIN: 'off', ...process.env, CAPTCHA_PROVIDER: 'test', SMS_DAILY_PER_IP: '100000', LOGIN_FAILURES_PER_IP: '100000' }, { dataDir, serveWeb: false });
const { app } = await buildApp(config, { logger: false });
app.post('/bench/bare', async () => ({ status: '000000', code: '000000', data: { ok: true }, message: 'ok', msg: 'ok' }));
await app.listen({ port: 0, host: '127.0.0.1' });
const addr = app.server.address();
process.send?.({ port: typeof addr === 'object' && addr ? addr.port : 0 });
