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
    const mod = process.getBuiltinModule?.('node:sqlite') as NodeSqlite | undefined;
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
  return mod ? new mod.DatabaseSync(file) : (new (loadBetterSqlite())(file) as unknown as SqliteFile);
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
    db = nodeDb;
    prepareRaw = (sql) => {
      const st = nodeDb.prepare(sql);
      return {
        reader: st.columns().length > 0,
        all: (params) => st.all(...params),
        run: (params) => st.run(...params),
        iterate: (params) => st.iterate(...params),
      };
    };
  } else {
    const betterDb = new (loadBetterSqlite())(file);
    db = betterDb;
    // better-sqlite3 binds an array as the anonymous parameters: its Statement is Kysely's SqliteStatement.
    prepareRaw = (sql) => betterDb.prepare(sql) as unknown as SqliteStatement;
  }
  const cache = new Map<string, SqliteStatement>();
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
      cache.clear();
      db.close();
    },
  };
}
