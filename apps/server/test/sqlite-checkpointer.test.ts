import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.ts';
import { BACKSTOP_PAGES, INLINE_PAGES, startSqliteCheckpointer } from '../src/db/sqlite-checkpointer.ts';
import { sqliteEngine } from '../src/db/sqlite-driver.ts';

/**
 * The embedded database's WAL checkpoints run in a thread of their own (db/sqlite-checkpointer.ts),
 * not inside a commit on the event loop. SQLite only.
 */
/** A connection's `wal_autocheckpoint` (pages). */
const autocheckpointPages = async (d: Db) =>
  Number(Object.values((await d.run<Record<string, number>>(sql.raw('PRAGMA wal_autocheckpoint').compile(d.kysely), []))[0]!)[0]);

describe.skipIf(!!process.env.TEST_PG_URL)('SQLite checkpoints in a thread', () => {
  let dataDir: string;
  let file: string;
  let db: Db;
  const warnings: string[] = [];
  const until = async (what: () => boolean, ms = 5000) => {
    const end = Date.now() + ms;
    while (!what()) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-ckpt-'));
    file = path.join(dataDir, 'marketplace.sqlite');
    db = openDatabase({ dataDir, checkpointThread: true, warn: (m) => warnings.push(m) });
  });
  afterAll(async () => {
    await db?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the WAL small while the server connection never checkpoints below the backstop', async () => {
    expect(await autocheckpointPages(db)).toBe(BACKSTOP_PAGES);
    await sql`create table ballast (id integer primary key, body blob not null)`.execute(db.kysely);
    const chunk = Buffer.alloc(1024 * 1024, 7); // 1 MiB: ≈ 256 pages a transaction
    let maxWal = 0;
    // 80 MiB in all: ≈ 20,000 pages, twice the backstop — without the thread the WAL would reach 40 MB before a checkpoint.
    for (let i = 0; i < 80; i++) {
      await db.kysely.transaction().execute(async (trx) => {
        await sql`insert into ballast (body) values (${chunk})`.execute(trx);
        await sql`delete from ballast where id < ${i - 2}`.execute(trx);
      });
      maxWal = Math.max(maxWal, fs.statSync(`${file}-wal`).size);
      if (i % 4 === 3) {
        const runs = db.checkpointer!.stats.runs;
        await until(() => db.checkpointer!.stats.runs > runs);
      }
    }
    expect(db.checkpointer!.stats.framesCheckpointed).toBeGreaterThan(BACKSTOP_PAGES);
    // The file keeps its largest size (a restarted WAL is written over from its start): at most a few
    // MiB between two of the thread's checkpoints, far below the backstop's 40 MB.
    expect(maxWal).toBeLessThan(24 * 1024 * 1024);
    expect(warnings).toEqual([]);
  });

  it("leaves a second connection's checkpoints to the thread too (the worker lease's)", async () => {
    const beside = openDatabase({ dataDir, besideCheckpointThread: true });
    const plain = openDatabase({ dataDir });
    try {
      expect(await autocheckpointPages(beside)).toBe(BACKSTOP_PAGES);
      expect(await autocheckpointPages(plain)).toBe(INLINE_PAGES);
      expect(beside.checkpointer).toBeUndefined();
    } finally {
      await beside.close();
      await plain.close();
    }
  });

  it('leaves no WAL behind once the database is closed', async () => {
    await db.close();
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    db = undefined as unknown as Db;
  });

  it('goes back to checkpoints inside commits when the thread cannot run', async () => {
    const pages: number[] = [];
    const told: string[] = [];
    // A file in a directory that does not exist: the thread's connection cannot open.
    const cp = startSqliteCheckpointer({
      file: path.join(dataDir, 'missing', 'x.sqlite'),
      engine: sqliteEngine(),
      setPages: (n) => pages.push(n),
      warn: (m) => told.push(m),
    });
    await until(() => told.length > 0);
    expect(pages).toEqual([BACKSTOP_PAGES, INLINE_PAGES]);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/checkpoints run inline again \(wal_autocheckpoint 1000\)/);
    await cp.stop();
    expect(cp.stats.runs).toBe(0);
  });
});
