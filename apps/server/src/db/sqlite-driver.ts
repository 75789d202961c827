import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * The embedded database's engine. On Node 22.16+ / 23.11+ / 24 it is Node's built-in `node:sqlite`
 * (DatabaseSync): no native addon, nothing compiled against Node's headers. On Node 20 (which has no
 * node:sqlite) and on 22.13–22.15 (whose StatementSync lacks `columns()`, needed to tell readers from
 * writers) it is better-sqlite3, loaded lazily here — so a Node 24 process never loads the addon, whose
 * builds against Node 24.19+ headers abort in a garbage collection (docs/operations.md, "Node versions").
 */
export type SqliteEngine = 'node:sqlite' | 'better-sqlite3';

/** The part of node:sqlite's API used here (the project's @types/node is Node 20's, which has no node:sqlite). */
interface NodeStatementSync {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  run(...params: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  iterate(...params: unknown[]): IterableIterator<unknown>;
  columns(): unknown[];
}
interface NodeDatabaseSync {
  exec(sql: string): void;
  prepare(sql: string): NodeStatementSync;
  close(): void;
}
type NodeSqlite = { DatabaseSync: new (file: string) => NodeDatabaseSync; StatementSync: { prototype: object } };

let nodeSqlite: NodeSqlite | null | undefined;
/** node:sqlite when this Node has it with StatementSync#columns, else null. */
function loadNodeSqlite(): NodeSqlite | null {
  if (nodeSqlite === undefined) {
    // Node 22 flags node:sqlite as experimental with a warning on load; the checks below stand for it.
    const emitWarning = process.emitWarning;
    process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
      if (!/SQLite is an experimental feature/.test(String(warning))) (emitWarning as (...a: unknown[]) => void).call(process, warning, ...rest);
    }) as typeof process.emitWarning;
    let mod: NodeSqlite | undefined;
    try {
      mod = process.getBuiltinModule?.('node:sqlite') as NodeSqlite | undefined;
    } finally {
      process.emitWarning = emitWarning;
    }
    nodeSqlite = mod && typeof (mod.StatementSync.prototype as { columns?: unknown }).columns === 'function' ? mod : null;
  }
  return nodeSqlite;
}

let betterSqlite: typeof BetterSqlite3 | undefined;
function loadBetterSqlite(): typeof BetterSqlite3 {
  return (betterSqlite ??= createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3);
}

export function sqliteEngine(): SqliteEngine {
  return loadNodeSqlite() ? 'node:sqlite' : 'better-sqlite3';
}

/** SQLite's primary and extended result codes by number, as better-sqlite3 names them in `err.code`. */
const RESULT_CODES: Record<number, string> = {
  1: 'SQLITE_ERROR', 2: 'SQLITE_INTERNAL', 3: 'SQLITE_PERM', 4: 'SQLITE_ABORT', 5: 'SQLITE_BUSY', 6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM', 8: 'SQLITE_READONLY', 9: 'SQLITE_INTERRUPT', 10: 'SQLITE_IOERR', 11: 'SQLITE_CORRUPT',
  12: 'SQLITE_NOTFOUND', 13: 'SQLITE_FULL', 14: 'SQLITE_CANTOPEN', 15: 'SQLITE_PROTOCOL', 17: 'SQLITE_SCHEMA',
  18: 'SQLITE_TOOBIG', 19: 'SQLITE_CONSTRAINT', 20: 'SQLITE_MISMATCH', 21: 'SQLITE_MISUSE', 23: 'SQLITE_AUTH',
  25: 'SQLITE_RANGE', 26: 'SQLITE_NOTADB',
  261: 'SQLITE_BUSY_RECOVERY', 517: 'SQLITE_BUSY_SNAPSHOT', 773: 'SQLITE_BUSY_TIMEOUT', 262: 'SQLITE_LOCKED_SHAREDCACHE',
  275: 'SQLITE_CONSTRAINT_CHECK', 531: 'SQLITE_CONSTRAINT_COMMITHOOK', 787: 'SQLITE_CONSTRAINT_FOREIGNKEY',
  1043: 'SQLITE_CONSTRAINT_FUNCTION', 1299: 'SQLITE_CONSTRAINT_NOTNULL', 1555: 'SQLITE_CONSTRAINT_PRIMARYKEY',
  1811: 'SQLITE_CONSTRAINT_TRIGGER', 2067: 'SQLITE_CONSTRAINT_UNIQUE', 2323: 'SQLITE_CONSTRAINT_VTAB',
  2579: 'SQLITE_CONSTRAINT_ROWID', 2835: 'SQLITE_CONSTRAINT_PINNED', 3091: 'SQLITE_CONSTRAINT_DATATYPE',
};

/**
 * node:sqlite throws `code: 'ERR_SQLITE_ERROR'` with the SQLite result code in `errcode`; the app
 * (isUniqueViolation, isRetryable, …) reads better-sqlite3's names (`SQLITE_CONSTRAINT_UNIQUE`,
 * `SQLITE_BUSY`) from `code`. This gives node:sqlite's errors those names (errcode stays).
 */
function sqliteError(err: unknown): unknown {
  const e = err as { code?: unknown; errcode?: unknown };
  if (e && e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    const name = RESULT_CODES[e.errcode] ?? RESULT_CODES[e.errcode & 0xff] ?? `SQLITE_${e.errcode}`;
    Object.defineProperty(e, 'code', { value: name, writable: true, configurable: true, enumerable: true });
  }
  return err;
}
function named<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return (...args) => {
    try {
      return fn(...args);
    } catch (err) {
      throw sqliteError(err);
    }
  };
}

/** A plain connection to a SQLite file (tests and tools that touch the file beside the server). */
export interface SqliteFile {
  exec(sql: string): void;
  prepare(sql: string): {
    run(...params: unknown[]): unknown;
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
  };
  close(): void;
}

/** Opens `file` with this Node's engine (see SqliteEngine). */
export function openSqliteFile(file: string): SqliteFile {
  const mod = loadNodeSqlite();
  if (!mod) return new (loadBetterSqlite())(file) as unknown as SqliteFile;
  const db = new mod.DatabaseSync(file);
  return {
    exec: named((sql: string) => db.exec(sql)),
    prepare: named((sql: string) => {
      const st = db.prepare(sql);
      return {
        run: named((...params: unknown[]) => st.run(...params)),
        get: named((...params: unknown[]) => st.get(...params)),
        all: named((...params: unknown[]) => st.all(...params)),
      };
    }),
    close: () => db.close(),
  };
}

/** Prepared statements kept per connection, by SQL text (least recently used dropped first). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SqliteDatabase over either engine, with a bounded cache of prepared statements: Kysely's
 * SQLite driver prepares every query anew, and re-preparing costs more than running most of our
 * queries. Safe with one connection: Kysely runs one query at a time on it, and every statement is
 * reset when its call returns (a streamed select holds the connection until its iterator ends).
 */
export interface SqliteConnection extends SqliteDatabase {
  readonly engine: SqliteEngine;
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
}

export function openSqliteConnection(file: string, cacheSize = STATEMENT_CACHE_SIZE): SqliteConnection {
  const mod = loadNodeSqlite();
  let prepareRaw: (sql: string) => SqliteStatement;
  let db: { exec(sql: string): void; close(): void };
  if (mod) {
    const nodeDb = new mod.DatabaseSync(file);
    db = { exec: named((sql: string) => nodeDb.exec(sql)), close: () => nodeDb.close() };
    prepareRaw = named((sql: string): SqliteStatement => {
      const st = nodeDb.prepare(sql);
      return {
        reader: st.columns().length > 0,
        all: named((params) => st.all(...params)),
        run: named((params) => st.run(...params)),
        iterate: named((params) => st.iterate(...params)),
      };
    });
  } else {
    const betterDb = new (loadBetterSqlite())(file);
    db = betterDb;
    // better-sqlite3 binds an array as the anonymous parameters: its Statement is Kysely's SqliteStatement.
    prepareRaw = (sql) => betterDb.prepare(sql) as unknown as SqliteStatement;
  }
  const cache = new Map<string, SqliteStatement>();
  let closed = false;
  return {
    engine: mod ? 'node:sqlite' : 'better-sqlite3',
    exec: (sql) => db.exec(sql),
    prepare(sql) {
      if (cacheSize <= 0) return prepareRaw(sql);
      let st = cache.get(sql);
      if (st) {
        cache.delete(sql); // re-inserted below: Map order is recency
      } else {
        st = prepareRaw(sql);
        if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, st);
      return st;
    },
    close() {
      // Idempotent: Kysely closes it (once it ran a query) and Db.close closes it too (for a Db only run through Db.run).
      if (closed) return;
      closed = true;
      cache.clear();
      db.close();
    },
  };
}
