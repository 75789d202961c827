import { sql, type CompiledQuery } from 'kysely';
import type { AppContext } from '../../context.ts';

/**
 * A small cache of computed catalog results (list pages, totals) per database.
 *
 * On SQLite an entry is valid only while the database is unchanged: its key includes this
 * connection's `total_changes()` (every request) and the file's `data_version` (which moves when
 * another process commits; read every FILE_VERSION_POLL_MS) — so a cached page never survives a
 * write of this process, nor by more than 100 ms one of another process. On PostgreSQL
 * there is no such counter: entries live CATALOG_CACHE_MS (default 1 s), the staleness bound of a
 * list page across server processes. Writers in this process may call invalidateCatalogCache.
 * Ages are measured on the cache clock (ctx.monotonicNow, see context.ts), never on business time.
 */
const MAX_ENTRIES = 2000;
/** On SQLite the version check makes entries exact; the age bound only limits memory churn. */
const SQLITE_AGE_FACTOR = 30;

interface Entry {
  value: unknown;
  at: number;
  version: string;
}
const stores = new WeakMap<object, Map<string, Entry>>();
/** Computations in flight by key and version: concurrent misses share one (no stampede when an entry expires). */
const inflight = new WeakMap<object, Map<string, Promise<unknown>>>();
const versionQueries = new WeakMap<object, { changes: CompiledQuery<{ c: number }>; file: CompiledQuery<{ v: number }>; v: number; at: number }>();
/**
 * How often the file's data_version (commits by other processes) is read: the pragma costs ≈ 3 µs,
 * ten times total_changes(), so a cached page may outlive another process's commit by this long.
 * This process's own commits are seen at once through total_changes().
 */
const FILE_VERSION_POLL_MS = 100;

/** SQLite: this connection's total_changes() and the file's data_version; '' on PostgreSQL. */
export async function dataVersion(ctx: AppContext): Promise<string> {
  if (ctx.db.dialect !== 'sqlite') return '';
  let q = versionQueries.get(ctx.db);
  if (!q) {
    q = {
      changes: sql<{ c: number }>`select total_changes() as c`.compile(ctx.db.kysely),
      file: sql<{ v: number }>`select data_version as v from pragma_data_version()`.compile(ctx.db.kysely),
      v: -1,
      at: -Infinity,
    };
    versionQueries.set(ctx.db, q);
  }
  const now = ctx.monotonicNow();
  if (now - q.at >= FILE_VERSION_POLL_MS) {
    const [f] = await ctx.db.run(q.file, []);
    q.v = Number(f?.v);
    q.at = now;
  }
  const [row] = await ctx.db.run(q.changes, []);
  return `${row?.c}:${q.v}`;
}

/** `ttlMs`: the entry's lifetime on PostgreSQL (default CATALOG_CACHE_MS); 0 computes every time. */
export async function cachedResult<T>(ctx: AppContext, key: string, compute: () => Promise<T>, ttlMs = ctx.config.catalogCacheMs): Promise<T> {
  const ttl = ttlMs;
  if (ttl <= 0) return compute();
  let store = stores.get(ctx.db);
  if (!store) stores.set(ctx.db, (store = new Map()));
  const version = await dataVersion(ctx);
  const maxAge = ctx.db.dialect === 'sqlite' ? ttl * SQLITE_AGE_FACTOR : ttl;
  const now = ctx.monotonicNow();
  const hit = store.get(key);
  if (hit && hit.version === version && now - hit.at < maxAge) return hit.value as T;
  let running = inflight.get(ctx.db);
  if (!running) inflight.set(ctx.db, (running = new Map()));
  const flightKey = `${version}|${key}`;
  const pending = running.get(flightKey);
  if (pending) return pending as Promise<T>;
  const p = compute().then(
    (value) => {
      running.delete(flightKey);
      if (store.size >= MAX_ENTRIES) store.clear();
      store.set(key, { value, at: now, version });
      return value;
    },
    (err) => {
      running.delete(flightKey);
      throw err;
    },
  );
  running.set(flightKey, p);
  return p;
}

export function invalidateCatalogCache(ctx: AppContext) {
  stores.delete(ctx.db);
  inflight.delete(ctx.db);
}
