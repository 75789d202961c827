import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettledPaths } from '@cfx/contract/routes.ts';
import { makeApp, register, type TestApp } from './helpers.ts';
import { png, upload } from './upload-helpers.ts';

/**
 * The daily upload quota (UPLOADS_PER_USER_DAY, UPLOAD_MB_PER_USER_DAY) holds under parallel
 * uploads of one user: the quota is reserved in one transaction (the upload's row, written before
 * the file is stored), so exactly the cap is accepted; a store that fails gives its reservation back.
 * SQLite, or PostgreSQL with TEST_PG_URL.
 */
const EN = { lang: 'en' };
const storedFiles = (t: TestApp) => {
  const root = path.join(t.ctx.config.dataDir, 'uploads');
  return fs.existsSync(root) ? (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(root, f)).isFile()).length : 0;
};
const rows = async (t: TestApp) => Number((await t.ctx.db.kysely.selectFrom('uploads').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

async function withApp(env: NodeJS.ProcessEnv, fn: (t: TestApp) => Promise<void>) {
  const t = await makeApp({}, env);
  try {
    await fn(t);
  } finally {
    await t.close();
  }
}

describe(`upload quota under parallel uploads on ${process.env.TEST_PG_URL ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('30 parallel uploads with a cap of 10 files: exactly 10 accepted, 20 refused with 1006, 10 rows and 10 files', async () => {
    await withApp({ UPLOADS_PER_USER_DAY: '10' }, async (t) => {
      const u = await register(t);
      const r = await Promise.all(Array.from({ length: 30 }, (_, i) => upload(t, SettledPaths.upload, u.token, { data: png(20 + i, 20), filename: `${i}.png` }, EN)));
      expect(r.filter((x) => x.status === '000000')).toHaveLength(10);
      const refused = r.filter((x) => x.status !== '000000');
      expect(refused).toHaveLength(20);
      for (const x of refused) expect(x).toMatchObject({ http: 200, status: '1006', message: 'daily upload limit reached (10 files), please try again tomorrow' });
      expect(await rows(t)).toBe(10);
      expect(storedFiles(t)).toBe(10);
    });
  });

  it('8 parallel uploads of ≈360 KB with a cap of 1 MB: exactly 2 accepted', async () => {
    await withApp({ UPLOAD_MB_PER_USER_DAY: '1' }, async (t) => {
      const u = await register(t);
      const r = await Promise.all(Array.from({ length: 8 }, (_, i) => upload(t, SettledPaths.upload, u.token, { data: png(300, 300, true), filename: `${i}.png` }, EN)));
      expect(r.filter((x) => x.status === '000000')).toHaveLength(2);
      for (const x of r.filter((y) => y.status !== '000000')) expect(x).toMatchObject({ status: '1006', message: 'daily upload volume reached (1 MB), please try again tomorrow' });
      expect(await rows(t)).toBe(2);
      expect(storedFiles(t)).toBe(2);
    });
  });

  it('a store that fails gives its reservation back: 503, no row, and the whole cap is still there', async () => {
    await withApp({ UPLOADS_PER_USER_DAY: '3' }, async (t) => {
      const u = await register(t);
      const storage = t.ctx.storage;
      const put = storage.put.bind(storage);
      let failures = 2;
      storage.put = async (...args: Parameters<typeof put>) => {
        if (failures-- > 0) throw new Error('disk full');
        return put(...args);
      };
      const failed = await Promise.all([0, 1].map((i) => upload(t, SettledPaths.upload, u.token, { data: png(20, 20 + i), filename: `f${i}.png` }, EN)));
      for (const f of failed) expect(f).toMatchObject({ http: 503, status: '9999' });
      expect(await rows(t)).toBe(0);
      const ok = await Promise.all([0, 1, 2, 3].map((i) => upload(t, SettledPaths.upload, u.token, { data: png(30, 20 + i), filename: `${i}.png` }, EN)));
      expect(ok.map((x) => x.status).sort()).toEqual(['000000', '000000', '000000', '1006']);
      expect(await rows(t)).toBe(3);
    });
  });
});
