import path from 'node:path';
import { AsyncLocalStorage } from 'node:async_hooks';
import { ensurePrivateDir, ensurePrivateFile, restrictFile } from '../util/private-files.ts';
import pg from 'pg';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver } from 'kysely';
import type { Database } from './schema.ts';
import { openSqliteConnection, type SqliteEngine } from './sqlite-driver.ts';
import { StatementNames } from './pg-prepared.ts';
import { createChangeFeed, type ChangeFeed } from './change-feed.ts';
import { BACKSTOP_PAGES, startSqliteCheckpointer, type SqliteCheckpointer } from './sqlite-checkpointer.ts';

export type DialectName = 'sqlite' | 'postgres';
export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** The SQLite engine in use (node:sqlite or better-sqlite3); undefined on PostgreSQL. */
  sqliteEngine?: SqliteEngine;
  close(): Promise<void>;
  /**
   * Runs a query compiled once by Kysely with fresh parameters, skipping per-call query
   * building. On SQLite the prepared statement comes from the connection's statement cache; used on
   * hot paths (session lookup).
   */
  run<R>(query: CompiledQuery<R>, params: readonly unknown[]): Promise<R[]>;
  /** Changes of tables, in this process or another on the same database (change-feed.ts): exact in-process caches. */
  changes: ChangeFeed;
  /**
   * Runs `fn`, and everything it starts (loops, timers, the promises they chain), as the worker role.
   * On PostgreSQL their queries take connections from the worker's own pool (DB_WORKER_POOL_MAX): under
   * a flood the request pool has hundreds of queries queued, and fulfilment, minting and settlement
   * queued behind them fell tens of seconds behind the sale. On SQLite (one connection) `fn` just runs.
   */
  asWorker<T>(fn: () => T): T;
  /** SQLite with `checkpointThread`: the thread that runs the WAL's checkpoints (sqlite-checkpointer.ts). */
  checkpointer?: SqliteCheckpointer;
}

/**
 * SQLite transactions begin IMMEDIATE: they take the database's write lock at BEGIN, waiting for it
 * while another connection (a second server, the create-staff tool) writes — without blocking the
 * event loop (`onTimersWhileBusy` below: busy_timeout would sleep inside the call), as every write
 * outside a transaction does. A
 * deferred transaction ('begin') takes it only at its first write, and a transaction that has read
 * cannot wait for it then: SQLite answers SQLITE_BUSY / SQLITE_BUSY_SNAPSHOT at once ("database is
 * locked"), whatever busy_timeout says. Every transaction — inTx, kysely.transaction() anywhere,
 * migrations — goes through this driver, so none of them can meet that. Within one process nothing
 * changes (Kysely's SQLite driver has one connection and runs one transaction at a time); across
 * processes transactions on one file now run one after the other, which is what SQLite's single
 * writer did anyway for every transaction that writes.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  /** `feed`: told when a transaction begins and rolls back (change-feed.ts: writes reported at their statement and then undone). */
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly feed: Pick<ChangeFeed, 'began' | 'rolledBack'>,
    private readonly sqlite: { exec(sql: string): void },
    /** Set while this driver's connection is inside a transaction. */
    private readonly state: { inTx: boolean },
  ) {
    super(config);
  }
  override createDriver(): Driver {
    const driver = super.createDriver() as SqliteDriver;
    const { sqlite, state, feed } = this;
    const acquire = driver.acquireConnection.bind(driver);
    const commit = driver.commitTransaction.bind(driver);
    const rollback = driver.rollbackTransaction.bind(driver);
    const patched = new WeakSet<DatabaseConnection>();
    // The one connection of this driver is the one `sqlite` talks to.
    driver.acquireConnection = async () => {
      const connection = await acquire();
      if (!patched.has(connection)) {
        patched.add(connection);
        const execute = connection.executeQuery.bind(connection);
        // A write outside a transaction (an autocommit statement: a sweep's DELETE, a counter's UPDATE) waits for
        // another connection's write lock on timers too, as a transaction's BEGIN does. Selects never need the write lock.
        connection.executeQuery = ((q: CompiledQuery) =>
          state.inTx || q.query.kind === 'SelectQueryNode' ? execute(q) : onTimersWhileBusy(sqlite, () => execute(q))) as typeof connection.executeQuery;
      }
      return connection;
    };
    driver.beginTransaction = async () => {
      await onTimersWhileBusy(sqlite, () => sqlite.exec('begin immediate'));
      state.inTx = true;
      feed.began();
    };
    driver.commitTransaction = async (connection: DatabaseConnection) => {
      await commit(connection);
      state.inTx = false;
    };
    driver.rollbackTransaction = async (connection: DatabaseConnection) => {
      try {
        await rollback(connection);
      } finally {
        state.inTx = false;
        feed.rolledBack();
      }
    };
    return driver;
  }
}

/** How long a statement or a transaction's BEGIN waits for another connection's write lock on SQLite. */
const SQLITE_BUSY_WAIT_MS = 5000;

/**
 * Runs `attempt` — one statement that needs the write lock: a transaction's BEGIN IMMEDIATE, or a write
 * outside a transaction — on `sqlite`, waiting for another connection's write lock without blocking the
 * event loop. busy_timeout waits by sleeping inside the call: this process's event loop stood still
 * meanwhile — no request parsed, no answer sent, no timer run — and a second connection of the same
 * process (another thread's, or a tool's in a test) could not even finish the transaction it waited
 * for. Here the statement is tried with busy_timeout 0 and, while SQLite answers SQLITE_BUSY (or
 * SQLITE_BUSY_SNAPSHOT: such a statement changed nothing), tried again after 1, 2, 4, 4, … ms of
 * timers, for up to SQLITE_BUSY_WAIT_MS as before; then the busy error is thrown as before. Without
 * another writer the first try takes the lock: two pragmas more, nothing else.
 */
async function onTimersWhileBusy<T>(sqlite: { exec(sql: string): void }, attempt: () => T): Promise<Awaited<T>> {
  const deadline = Date.now() + SQLITE_BUSY_WAIT_MS;
  for (let wait = 1; ; wait = Math.min(wait * 2, 4)) {
    let result: { value: T } | undefined;
    sqlite.exec('PRAGMA busy_timeout = 0');
    try {
      result = { value: attempt() };
    } catch (err) {
      if (!/^SQLITE_BUSY/.test(String((err as { code?: unknown }).code)) || Date.now() >= deadline) throw err;
    } finally {
      // Restored before the timer, not after it: while this statement waits, the connection still runs the
      // process's reads (db.run lookups, the change feed), which keep busy_timeout for the rare reader that waits.
      sqlite.exec(`PRAGMA busy_timeout = ${SQLITE_BUSY_WAIT_MS}`);
    }
    if (result) return await result.value;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

// int8 (bigint) columns hold epoch milliseconds and ids: all far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  dbPool?: { max: number; workerMax: number; prepared?: number };
  /** SQLite: run the WAL's checkpoints in a thread of their own, off the event loop (the server's database; not tools'). */
  checkpointThread?: boolean;
  /** Where the checkpoint thread's troubles are told (default: stderr). */
  warn?: (msg: string) => void;
  /**
   * SQLite without its own checkpoint thread: a second connection of a process whose database has one
   * (the worker lease's) — its commits leave the checkpoints to that thread too, up to the backstop.
   */
  besideCheckpointThread?: boolean;
}): Db {
  if (opts.databaseUrl) {
    // Hot SQL texts run as named prepared statements (pg-prepared.ts): parsed and planned once per connection.
    const names = new StatementNames(opts.dbPool?.prepared ?? 200);
    // Named for pg_stat_activity: an operator sees which connections are the worker role's.
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.dbPool?.max ?? 10, application_name: 'cfx-market' });
    // The worker role's pool connects lazily: a standby process opens none of its connections.
    const workerPool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.dbPool?.workerMax ?? 6, application_name: 'cfx-market-worker' });
    const worker = new AsyncLocalStorage<true>();
    const changes = createChangeFeed({ postgresUrl: opts.databaseUrl });
    const pools = {
      connect: async () => names.wrap(await (worker.getStore() ? workerPool : pool).connect()),
      end: async () => {
        await Promise.all([pool.end(), workerPool.end()]);
      },
    };
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pools }), plugins: [changes.plugin] });
    return {
      kysely,
      dialect: 'postgres',
      changes,
      asWorker: (fn) => worker.run(true, fn),
      close: async () => {
        await changes.close();
        await kysely.destroy();
      },
      run: async <R>(q: CompiledQuery<R>, params: readonly unknown[]) => {
        const client = names.wrap(await pool.connect());
        try {
          return (await client.query(q.sql, params as unknown[])).rows as R[];
        } finally {
          client.release();
        }
      },
    };
  }
  ensurePrivateDir(opts.dataDir);
  const file = path.join(opts.dataDir, 'marketplace.sqlite');
  ensurePrivateFile(file);
  const sqlite = openSqliteConnection(file);
  sqlite.exec('PRAGMA journal_mode = WAL');
  // SQLite gives -wal/-shm the database file's mode; made 0600 explicitly for files left by older versions.
  for (const ext of ['-wal', '-shm']) restrictFile(file + ext);
  sqlite.exec('PRAGMA synchronous = NORMAL');
  sqlite.exec('PRAGMA foreign_keys = ON');
  sqlite.exec(`PRAGMA busy_timeout = ${SQLITE_BUSY_WAIT_MS}`);
  // Another connection's commit (another process on this file) changes our data_version; the change
  // counters (migration 0033, absent until it ran) say which of the watched tables it changed.
  const changes = createChangeFeed({
    dataVersion: () => Number((sqlite.prepare('PRAGMA data_version').all([])[0] as { data_version: number }).data_version),
    counters: () => {
      try {
        const rows = sqlite.prepare('select tbl, n from change_counters').all([]) as { tbl: string; n: number }[];
        return new Map(rows.map((r) => [r.tbl, Number(r.n)]));
      } catch {
        return undefined;
      }
    },
  });
  const state = { inTx: false };
  const kysely = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: sqlite }, changes, sqlite, state), plugins: [changes.plugin] });
  if (opts.besideCheckpointThread && !opts.checkpointThread) sqlite.exec(`PRAGMA wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  const checkpointer = opts.checkpointThread
    ? startSqliteCheckpointer({
        file,
        engine: sqlite.engine,
        setPages: (pages) => sqlite.exec(`PRAGMA wal_autocheckpoint = ${pages}`),
        warn: opts.warn ?? ((msg) => void process.stderr.write(`${msg}\n`)),
      })
    : undefined;
  return {
    kysely,
    dialect: 'sqlite',
    sqliteEngine: sqlite.engine,
    changes,
    checkpointer,
    asWorker: (fn) => fn(),
    close: async () => {
      // The thread's connection first: the last connection to close checkpoints the WAL and removes it.
      await checkpointer?.stop();
      await changes.close();
      await kysely.destroy();
      // Kysely closes the connection only if it ran a query on it; a Db used only through `run` is closed here.
      sqlite.close();
    },
    run: async <R>(q: CompiledQuery<R>, params: readonly unknown[]) => {
      const st = sqlite.prepare(q.sql);
      if (st.reader) return st.all(params) as R[];
      if (state.inTx) st.run(params);
      else await onTimersWhileBusy(sqlite, () => st.run(params));
      return [];
    },
  };
}
