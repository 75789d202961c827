import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.ts';
import { keyList } from '../src/db/key-list.ts';

describe.skipIf(!!process.env.TEST_PG_URL)('keyList: the keys of `column in (…)` on SQLite', () => {
  let dataDir: string;
  let db: Db;
  const t = () => db.kysely as unknown as import('kysely').Kysely<{ kl: { k: string; n: number } }>;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-keylist-'));
    db = openDatabase({ dataDir });
    await sql`create table kl (k text primary key, n integer not null unique)`.execute(db.kysely);
    for (let i = 1; i <= 300; i++) await sql`insert into kl (k, n) values (${`K${i}`}, ${i})`.execute(db.kysely);
  });
  afterAll(async () => {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds exactly the rows of the keys, text or integer, with one SQL text for every count', async () => {
    const texts = new Set<string>();
    for (const n of [1, 7, 300]) {
      const keys = Array.from({ length: n }, (_, i) => `K${i * 3 + 1}`).filter((k) => Number(k.slice(1)) <= 300);
      const q = t().selectFrom('kl').select('n').where('k', 'in', keyList({ db }, keys)).orderBy('n');
      texts.add(q.compile().sql);
      expect((await q.execute()).map((r) => r.n)).toEqual(keys.map((k) => Number(k.slice(1))).sort((a, b) => a - b));
      const ints = t().selectFrom('kl').select('k').where('n', 'in', keyList({ db }, [2, 4, 999]));
      texts.add(ints.compile().sql);
      expect((await ints.execute()).map((r) => r.k).sort()).toEqual(['K2', 'K4']);
    }
    expect(texts.size).toBe(2); // one per statement, not one per count
    expect(await t().selectFrom('kl').select('n').where('k', 'in', keyList({ db }, [] as string[])).execute()).toEqual([]);
  });

  it('lets SQLite find the rows by the index of the column', async () => {
    const q = t().selectFrom('kl').select('n').where('k', 'in', keyList({ db }, ['K1', 'K2'])).compile();
    const plan = await db.run<{ detail: string }>({ ...q, sql: `explain query plan ${q.sql}` }, q.parameters);
    expect(plan.map((p) => p.detail).join(' | ')).toMatch(/SEARCH kl USING INDEX sqlite_autoindex_kl_1 \(k=\?\)/);
  });

  it('leaves the keys as they are on PostgreSQL', () => {
    expect(keyList({ db: { dialect: 'postgres' } }, ['a', 'b'])).toEqual(['a', 'b']);
  });
});
