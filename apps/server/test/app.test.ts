import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/db/migrate.ts';
import { buildApp, maskPii } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { API, makeApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => { t = await makeApp(); });
afterAll(async () => { await t?.close(); });

describe('the app', () => {
  it('answers /healthz once migrated', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ status: '000000', data: { db: t.dbKind, chain: 'off', worker: 'holder' } });
  });

  it("/healthz names the process's part in the worker role: the lease holder, a standby on the same database, or off", async () => {
    const other = async (jobs: '0' | '1') =>
      buildApp(
        loadConfig(
          { DEV_MODE: '1', CAPTCHA_PROVIDER: 'test', CHAIN: 'off', DEMO_DATA: '0', MARKET_JOBS: jobs, PASSWORD_SCRYPT_N: '16384' },
          { dataDir: t.ctx.config.dataDir, databaseUrl: t.ctx.config.databaseUrl, serveWeb: false },
        ),
        { logger: false },
      );
    const [standby, off] = [await other('1'), await other('0')];
    try {
      const role = async (a: { app: TestApp['app'] }) => (await a.app.inject({ method: 'GET', url: '/healthz' })).json().data.worker;
      expect([await role(t), await role(standby), await role(off)]).toEqual(['holder', 'standby', 'off']);
    } finally {
      await standby.close();
      await off.close();
    }
  });

  it('migrations are idempotent: running them again changes nothing', async () => {
    await migrate(t.ctx.db, { secrets: t.ctx.secrets, now: Date.now() });
    await migrate(t.ctx.db, { secrets: t.ctx.secrets, now: Date.now() });
    const pics = await t.ctx.db.kysely.selectFrom('profpics').select('id').execute();
    expect(pics).toHaveLength(12);
  });

  it('serves the OpenAPI document of the gateway', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/mvapi/docs/json' });
    expect(r.statusCode).toBe(200);
    const doc = r.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain(`${API}/api/user/v1/login`);
    expect(doc.paths[`${API}/api/user/v1/login`].post.requestBody).toBeTruthy();
  });

  it('an unknown API path is a 404 in the envelope', async () => {
    const r = await t.app.inject({ method: 'POST', url: `${API}/no/such/call`, headers: { lang: 'en' } });
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ status: '1404', code: '1404', data: null, message: 'endpoint not found', msg: 'endpoint not found' });
  });

  it('masks phone and ID numbers in logged URLs', () => {
    expect(maskPii('/dev/sms-outbox?mobile=13800138000')).toBe('/dev/sms-outbox?mobile=138****8000');
    expect(maskPii('/x?id=11010519491231002X')).toBe('/x?id=110105********002X');
  });
});
