import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../src/db/database.ts';
import { StatementNames } from '../src/db/pg-prepared.ts';
import { makeApp, type TestApp } from './helpers.ts';

/**
 * Named prepared statements on PostgreSQL (db/pg-prepared.ts), on the real server: a text run
 * often enough runs under its name, each connection prepares at most its cap, a `select *` never
 * gets a name, and the answers are the same named or not.
 */
const pg = !!process.env.TEST_PG_URL;

describe('StatementNames', () => {
  it('names a text on its third run, keeps the name, never names select *, and stops at the per-connection cap', () => {
    const names = new StatementNames(2);
    const a = {};
    const q1 = 'select "id" from "users" where "id" = $1';
    expect([names.nameFor(a, q1), names.nameFor(a, q1)]).toEqual([undefined, undefined]);
    const n1 = names.nameFor(a, q1);
    expect(n1).toMatch(/^q_[\w-]{22}$/);
    expect(names.nameFor(a, q1)).toBe(n1);
    for (const star of ['select * from "users" where "id" = $1', 'select "users".* from "users"', 'update "t" set "a" = $1 returning *']) {
      for (let i = 0; i < 5; i++) expect(names.nameFor(a, star)).toBeUndefined();
    }
    expect(names.nameFor(a, 'select count(*) as "n" from "users"')).toBeUndefined();
    names.nameFor(a, 'select count(*) as "n" from "users"');
    expect(names.nameFor(a, 'select count(*) as "n" from "users"')).toMatch(/^q_/); // count(*) is not a select *
    // The cap of 2 per connection is reached: a third hot text runs unnamed there, named on another connection.
    const q3 = 'select "nickname" from "users" where "id" = $1';
    for (let i = 0; i < 3; i++) names.nameFor(a, q3);
    expect(names.nameFor(a, q3)).toBeUndefined();
    expect(names.nameFor({}, q3)).toMatch(/^q_/);
    expect(new StatementNames(0).nameFor(a, q1)).toBeUndefined();
  });
});

describe.runIf(pg)('named statements on PostgreSQL', () => {
  let t: TestApp;
  let db: Db;
  beforeAll(async () => {
    t = await makeApp({}, { MARKET_JOBS: '0' });
    db = openDatabase({ databaseUrl: t.ctx.config.databaseUrl, dataDir: t.ctx.config.dataDir, dbPool: { max: 1, workerMax: 1, prepared: 3 } });
  });
  afterAll(async () => {
    await db?.close();
    await t?.close();
  });

  /** The prepared statements of the pool's one connection (the query itself runs on it). */
  const prepared = async () =>
    (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(db.kysely)).rows.filter((r) => r.name.startsWith('q_'));

  it('runs a hot text under its name on the connection, answers as unnamed, and prepares no more than the cap', async () => {
    const id = (await t.ctx.db.kysely.selectFrom('profpics').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow()).id;
    const byId = (v: string) => db.kysely.selectFrom('profpics').select(['id', 'url']).where('id', '=', v).execute();
    const first = await byId(id);
    expect(first).toHaveLength(1);
    for (let i = 0; i < 4; i++) expect(await byId(id)).toEqual(first);
    expect((await prepared()).map((r) => r.statement)).toEqual([expect.stringContaining('from "profpics" where "id" = $1')]);
    // select * stays unnamed however often it runs.
    for (let i = 0; i < 5; i++) await db.kysely.selectFrom('profpics').selectAll().where('id', '=', id).execute();
    expect(await prepared()).toHaveLength(1);
    // More hot texts than the cap (3): the connection holds three, the rest still answer.
    for (const col of ['url', 'id'] as const) for (let k = 0; k < 4; k++) await db.kysely.selectFrom('profpics').select(col).where('id', '>', '').limit(1).execute();
    for (let k = 0; k < 4; k++) expect(await db.kysely.selectFrom('profpics').select('url').where('id', '=', id).limit(1).execute()).toEqual([{ url: first[0]!.url }]);
    // the cap counts this file's statements; pg_prepared_statements' own read is one of them once hot
    expect((await prepared()).length).toBeLessThanOrEqual(3);
    // Db.run (the session check's compiled path) goes through the same names.
    const compiled = db.kysely.selectFrom('profpics').select('url').where('id', '=', id).compile();
    for (let k = 0; k < 4; k++) expect(await db.run(compiled, [id])).toEqual([{ url: first[0]!.url }]);
  });
});
