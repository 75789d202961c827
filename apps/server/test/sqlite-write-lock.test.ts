import { execFile, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { inTx } from '../src/db/tx.ts';
import { createStaffAccount } from '../src/tools/create-staff.ts';
import { loadSecretBox } from '../src/util/secret-box.ts';
import { waitFor } from './process-helpers.ts';

/**
 * SQLite with two processes on one file (the server and the create-staff tool, or two servers):
 * a transaction that reads first and writes later must not fail with "database is locked" while
 * the other process writes. A deferred transaction cannot wait for the write lock once it has
 * read (SQLite answers busy at once, busy_timeout is not used for the upgrade); every transaction
 * on SQLite therefore begins IMMEDIATE (db/database.ts) and waits for the lock up front.
 * SQLite only: PostgreSQL has row locks and no such upgrade.
 */
const run = promisify(execFile);
const serverDir = path.join(import.meta.dirname, '..');

describe.skipIf(!!process.env.TEST_PG_URL)('SQLite write lock across processes', () => {
  let dataDir: string;
  let file: string;
  let db: Db;
  let writer: ChildProcess | undefined;
  const ticks = () => (fs.existsSync(file) ? db.kysely.selectFrom('writer_ticks' as never).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow() : undefined);

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-lock-'));
    file = path.join(dataDir, 'marketplace.sqlite');
    db = openDatabase({ dataDir });
    await migrate(db, { secrets: loadSecretBox(dataDir), now: Date.now() });
    await db.kysely.schema.createTable('lock_probe').addColumn('name', 'text').execute();
    // The other process: holds the write lock 10 ms, lets go for 5 ms, all the time.
    writer = fork(path.join(import.meta.dirname, 'fixtures/sqlite-writer.ts'), [file, '10', '5'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise<void>((resolve, reject) => {
      writer!.once('message', () => resolve());
      writer!.once('exit', (code) => reject(new Error(`writer exited with ${code}`)));
    });
  }, 30_000);
  afterAll(async () => {
    if (writer && writer.exitCode === null) writer.kill('SIGKILL');
    await db?.close();
  });

  it('read-then-write transactions of this process wait for the other writer instead of failing', async () => {
    const before = Number((await ticks())!.n);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        inTx({ db }, async (trx) => {
          await trx.selectFrom('staff').select('id').where('username', '=', `reader${i}`).executeTakeFirst();
          // Work between the read and the write (create-staff hashes the password here).
          await new Promise((r) => setTimeout(r, 30));
          await trx.insertInto('lock_probe' as never).values({ name: `reader${i}` } as never).execute();
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    // The other process was writing before and still writes (it waited for these transactions, as
    // they waited for it: SQLite's lock is not fair, a busy waiter polls).
    // (waited for, not slept: a loaded machine may not schedule the writer within a fixed 200 ms)
    await waitFor(async () => Number((await ticks())!.n) > before, 10_000, 'the other process to write again');
    expect(Number((await ticks())!.n)).toBeGreaterThan(before);
  }, 60_000);

  it('createStaffAccount in this process, while the other process writes', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await createStaffAccount(db, { username: `owner${i}`, roles: ['owner'] });
      expect(r.staff.username).toBe(`owner${i}`);
    }
  }, 60_000);

  it('the create-staff tool run as the README says, while the other process writes: exit 0, no "database is locked"', async () => {
    for (const name of ['boss', 'boss2']) {
      const r = await run(process.execPath, ['--import', 'tsx', 'src/tools/create-staff.ts', '--username', name, '--role', 'owner'], {
        cwd: serverDir,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      }).catch((err: { code?: number; stdout?: string; stderr?: string }) => err);
      expect(r.stderr).not.toMatch(/database is locked/);
      expect(r.stdout).toContain(`created staff account "${name}" (owner)`);
    }
  }, 90_000);
});

/**
 * Waiting for another connection's write lock must not stop this process's event loop: with
 * busy_timeout the wait slept inside the BEGIN, so no timer, request or answer of the process ran
 * meanwhile — and when the lock's holder was another connection of the same process (a worker
 * thread's, here a second handle), it could never commit: the waiter failed with "database is
 * locked" after busy_timeout's 5 s.
 */
describe.skipIf(!!process.env.TEST_PG_URL)('SQLite write lock: the wait for it runs on timers', () => {
  let dataDir: string;
  let a: Db;
  let b: Db;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-lock-async-'));
    a = openDatabase({ dataDir });
    await migrate(a, { secrets: loadSecretBox(dataDir), now: Date.now() });
    await a.kysely.schema.createTable('lock_order').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('name', 'text').execute();
    b = openDatabase({ dataDir });
  }, 30_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * `a` holds the write lock across 300 ms of timers of this same event loop (inserting `aRow`); `second`
   * (writes of `b`) must wait for a's commit on timers — well below busy_timeout's 5 s, timers running
   * meanwhile — and then succeed.
   */
  async function waitsForA(aRow: Record<string, unknown>, second: () => Promise<unknown>) {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      let aHolds!: () => void;
      const holding = new Promise<void>((r) => (aHolds = r));
      const first = inTx({ db: a }, async (trx) => {
        await trx.insertInto('lock_order' as never).values(aRow as never).execute();
        aHolds();
        await new Promise((r) => setTimeout(r, 300));
      });
      await holding;
      const started = performance.now();
      const ticksBefore = ticks;
      await Promise.all([first, second()]);
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThan(200);
      expect(waited).toBeLessThan(3000);
      expect(ticks - ticksBefore).toBeGreaterThanOrEqual(10);
    } finally {
      clearInterval(timer);
    }
  }
  const rows = () => a.kysely.selectFrom('lock_order' as never).select(['id', 'name'] as never).orderBy('id' as never).execute();

  it("a transaction waits for the other connection's transaction (which needs this event loop to commit) and then commits", async () => {
    await waitsForA({ name: 'a' }, () =>
      inTx({ db: b }, async (trx) => {
        await trx.insertInto('lock_order' as never).values({ name: 'b' } as never).execute();
      }),
    );
    expect(await rows()).toEqual([{ id: 1, name: 'a' }, { id: 2, name: 'b' }]);
  }, 30_000);

  it("a write outside a transaction (autocommit) waits on timers too, for a transaction that needs this event loop to commit", async () => {
    await a.kysely.deleteFrom('lock_order' as never).execute();
    // Three autocommit writes of `b` (Kysely's and a compiled one through db.run), none in a transaction. Before:
    // busy_timeout slept 5 s inside the INSERT, no timer ran, `a` could not commit and the INSERT failed "database is locked".
    let timeoutWhileWaiting: unknown;
    await waitsForA({ id: 10, name: 'a' }, async () => {
      const inserting = b.kysely.insertInto('lock_order' as never).values({ id: 11, name: 'b' } as never).execute();
      // While the INSERT waits on timers, b's other statements keep busy_timeout (only the write's own tries run without it).
      await new Promise((r) => setTimeout(r, 50));
      timeoutWhileWaiting = await b.run(CompiledQuery.raw('PRAGMA busy_timeout'), []);
      await inserting;
      await b.kysely.updateTable('lock_order' as never).set({ name: 'b2' } as never).where('id' as never, '=', 11 as never).execute();
      await b.run(b.kysely.deleteFrom('lock_order' as never).where('name' as never, '=', 'nobody' as never).compile(), ['nobody']);
    });
    expect(timeoutWhileWaiting).toEqual([{ timeout: 5000 }]);
    expect(await rows()).toEqual([{ id: 10, name: 'a' }, { id: 11, name: 'b2' }]);
  }, 30_000);
});
