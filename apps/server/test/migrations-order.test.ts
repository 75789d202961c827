import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import { sql, Migrator, type Migration } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.ts';
import { migrate, migrations, type MigrationEnv } from '../src/db/migrate.ts';
import { loadSecretBox } from '../src/util/secret-box.ts';

/**
 * Migrations 0013–0019 were committed by parallel branches in another order than numbered, so a dev
 * database may have run a higher one before a lower one. migrate() runs whatever is pending
 * (allowUnorderedMigrations) and the result is the same schema as in order — on SQLite, or on
 * PostgreSQL with TEST_PG_URL.
 */
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

async function freshDb(): Promise<{ db: Db; env: MigrationEnv }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-migorder-'));
  let databaseUrl: string | undefined;
  let dropDb: (() => Promise<void>) | undefined;
  if (process.env.TEST_PG_URL) {
    const name = `t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_PG_URL });
    await admin.connect();
    await admin.query(`create database ${name} template template0 encoding 'UTF8'`);
    await admin.end();
    const u = new URL(process.env.TEST_PG_URL);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: process.env.TEST_PG_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const db = openDatabase({ databaseUrl, dataDir });
  cleanups.push(async () => {
    await db.close();
    await dropDb?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { db, env: { secrets: loadSecretBox(dataDir), now: Date.now() } };
}

/** Runs exactly `names`, one at a time in the given order (as a database that saw them in that order). */
async function applyInOrder(db: Db, env: MigrationEnv, names: string[]) {
  for (let i = 0; i < names.length; i++) {
    const subset = Object.fromEntries(names.slice(0, i + 1).map((n) => [n, migrations[n]!(db, env)])) as Record<string, Migration>;
    const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => subset }, allowUnorderedMigrations: true });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
  }
}

/** Tables with their columns (name, type, nullability) and the indexes, order-independent. */
async function schemaOf(db: Db): Promise<string[]> {
  if (db.dialect === 'sqlite') {
    const tables = (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'`.execute(db.kysely)).rows.map((r) => r.name);
    const out: string[] = [];
    for (const t of tables) {
      for (const c of (await sql<{ name: string; type: string; notnull: number; pk: number; dflt_value: string | null }>`select * from pragma_table_info(${t})`.execute(db.kysely)).rows) {
        out.push(`column ${t}.${c.name} ${c.type} notnull=${c.notnull} pk=${c.pk} default=${c.dflt_value}`);
      }
    }
    for (const i of (await sql<{ name: string; tbl_name: string; sql: string | null }>`select name, tbl_name, sql from sqlite_master where type = 'index' and tbl_name not like 'kysely_%'`.execute(db.kysely)).rows) {
      out.push(`index ${i.tbl_name}.${i.name} ${i.sql ?? '(auto)'}`);
    }
    return out.sort();
  }
  const cols = await sql<{ table_name: string; column_name: string; data_type: string; is_nullable: string; column_default: string | null }>`
    select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
    where table_schema = 'public' and table_name not like 'kysely_%'`.execute(db.kysely);
  const idx = await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename not like 'kysely_%'`.execute(db.kysely);
  return [
    ...cols.rows.map((c) => `column ${c.table_name}.${c.column_name} ${c.data_type} nullable=${c.is_nullable} default=${c.column_default}`),
    ...idx.rows.map((i) => `index ${i.indexname} ${i.indexdef}`),
  ].sort();
}

const ALL = Object.keys(migrations).sort();
const BEFORE = ALL.filter((n) => n < '0013');
const UNORDERED = ALL.filter((n) => n >= '0013' && n < '0020');

describe('migrations applied out of order', () => {
  it('are all listed, and 0013–0019 are the ones committed out of order', () => {
    expect(UNORDERED.map((n) => n.slice(0, 4))).toEqual(['0013', '0014', '0015', '0016', '0017', '0018', '0019']);
  });

  let inOrder: string[];
  it('in order: the reference schema', async () => {
    const { db, env } = await freshDb();
    await migrate(db, env);
    inOrder = await schemaOf(db);
    expect(inOrder.some((l) => l.startsWith('column tickets.'))).toBe(true);
  });

  it('0018 and 0019 before 0015: migrate() applies the rest and the schema is the same', async () => {
    const { db, env } = await freshDb();
    await applyInOrder(db, env, [...BEFORE, '0013-drop-phases', '0014-boxes-compose-shift', '0018-tickets', '0019-admin']);
    await migrate(db, env);
    const ran = (await db.kysely.selectFrom('kysely_migration' as never).select('name' as never).execute()) as { name: string }[];
    expect(ran.map((r) => r.name).sort()).toEqual(ALL);
    expect(await schemaOf(db)).toEqual(inOrder);
    await migrate(db, env); // and again: nothing left to do
  });

  it('0013–0019 newest first, one migrate() per step, end with the same schema', async () => {
    const { db, env } = await freshDb();
    await applyInOrder(db, env, [...BEFORE, ...[...UNORDERED].reverse()]);
    await migrate(db, env);
    expect(await schemaOf(db)).toEqual(inOrder);
  });
});
