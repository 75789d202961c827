import { createQueryId, sql, type Compilable, type CompiledQuery, type Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from './schema.ts';

/** A Kysely handle inside a transaction (or the plain handle). */
export type Q = Kysely<Database>;

/**
 * PostgreSQL deadlock / serialization failures and SQLite "busy" are retried; anything else propagates.
 * On SQLite every transaction begins IMMEDIATE (db/database.ts), so busy comes only from a BEGIN
 * that waited busy_timeout for another process's write lock in vain.
 */
function retryable(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === '40P01' || code === '40001' || (typeof code === 'string' && code.startsWith('SQLITE_BUSY'));
}

/**
 * Runs `fn` in one database transaction (rolled back if it throws). Lock order inside every
 * market transaction: orders → listings → goods → bids → ledger balances (sorted by account),
 * so deadlocks are rare; the few PostgreSQL reports one are retried here.
 */
export async function inTx<T>(ctx: Pick<AppContext, 'db'>, fn: (trx: Q) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const after: (() => unknown)[] = [];
    try {
      const out = await ctx.db.kysely.transaction().execute((trx) => {
        commitHooks.set(trx, after);
        return fn(trx);
      });
      // Committed: what a callback throws must not turn the caller's success into a failure (or a retry).
      if (after.length) await Promise.allSettled(after.map(async (cb) => cb()));
      return out;
    } catch (err) {
      if (attempt < 4 && retryable(err)) {
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));
        continue;
      }
      throw err;
    }
  }
}

const commitHooks = new WeakMap<object, (() => unknown)[]>();

/**
 * Runs `cb` once the transaction `trx` has committed (not when it rolls back, and only for the
 * attempt that commits when inTx retries); inTx returns when the callbacks have settled (what they
 * throw is dropped). `trx` must be inTx's handle — answered false otherwise and `cb` is not run (a
 * caller with work that must follow the commit has a sweep for that case) — or the plain handle,
 * whose statements commit on their own: `cb` runs at once and is not awaited.
 */
export function afterCommit(trx: Q, cb: () => unknown): boolean {
  const list = commitHooks.get(trx);
  if (list) list.push(cb);
  else if (!trx.isTransaction) void Promise.resolve().then(cb).catch(() => undefined);
  return !!list || !trx.isTransaction;
}

export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** Rows changed by an UPDATE / DELETE result. */
export const changed = (r: { numUpdatedRows?: bigint; numDeletedRows?: bigint } | undefined) => Number(r?.numUpdatedRows ?? r?.numDeletedRows ?? 0n);

/**
 * Serialises transactions on one key (a phone number, a user) until the transaction ends: a
 * PostgreSQL transaction-scoped advisory lock. On SQLite every transaction already runs alone
 * (one connection per process, and BEGIN IMMEDIATE takes the file's write lock across processes),
 * so nothing is needed there.
 */
export async function lockKey(ctx: Pick<AppContext, 'db'>, trx: Q, key: string): Promise<void> {
  if (ctx.db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
}

/**
 * The rows of a multi-row statement in parts of at most `max` rows. On SQLite the parts are powers of
 * two, largest first (37 rows → 32 + 4 + 1): the connection keeps its prepared statements by SQL text
 * (sqlite-driver.ts) and a statement of n rows is a text of its own, so every new batch size was
 * prepared anew (preparing took ≈ 0.4 s of the event loop during a drop's sale, these statements
 * a good part of it) and the statements kept for many sizes held memory (the 256 sizes of one orders
 * insert: ≈ 100 MB). In powers of two a statement has at most ⌊log2 max⌋ + 1 texts (eight for 150
 * or 200 rows). On PostgreSQL parts of `max` rows: each part is a round trip.
 */
export function rowParts<T>(ctx: { db: { dialect: string } }, rows: readonly T[], max: number): T[][] {
  const out: T[][] = [];
  if (ctx.db.dialect !== 'sqlite') {
    for (let i = 0; i < rows.length; i += max) out.push(rows.slice(i, i + max));
    return out;
  }
  let top = 1;
  while (top * 2 <= max) top *= 2;
  let i = 0;
  for (let p = top; p >= 1; p >>= 1) {
    while (rows.length - i >= p) {
      out.push(rows.slice(i, i + p));
      i += p;
    }
  }
  return out;
}

/**
 * `column = value` (or `in` the values) in a form no index serves, for a statement whose way in must
 * be a list of unique keys beside it (`order_no in (…)`). While a drop moves thousands of orders into
 * one status faster than autovacuum analyses `orders`, PostgreSQL believes few rows have that status
 * and may read them all through the status index, testing each against the list (a completion chunk
 * of 200 numbers read 3,002 order rows in test/drop-reserve-batch.test.ts); SQLite, which keeps no
 * statistics of these tables, chose the status index for the fulfilment's update and for a payment
 * batch of 20 orders. The test itself is unchanged: the row must still have the value.
 */
export function unindexedEq(column: string, value: string | readonly string[]) {
  if (typeof value === 'string') return sql<boolean>`(${sql.ref(column)} || '') = ${value}`;
  return sql<boolean>`(${sql.ref(column)} || '') in (${sql.join(value)})`;
}

/**
 * A query Kysely builds and compiles once per database, then runs with fresh parameters through the
 * same Kysely: its connection handling (on SQLite a statement outside a transaction waits for the one
 * connection's transaction, so it reads committed rows only, which `Db.run` does not), its result
 * plugins, and on PostgreSQL the named prepared statement of its SQL text. For hot reads whose
 * building cost more than running them: `buyerOrder`'s 31 named columns took ≈ 4 % of the event loop
 * in a drop's sale (bench/RESULTS.md). `build` must bind every value as a parameter, in the order of
 * `params` (placeholder values: any of the right type).
 */
export function compiledOnce<R>(build: (k: Q) => Compilable<R>): (k: Q, params: readonly unknown[]) => Promise<R[]> {
  const cache = new WeakMap<object, CompiledQuery<R>>();
  return async (k, params) => {
    let q = cache.get(k);
    if (!q) cache.set(k, (q = build(k).compile()));
    if (q.parameters.length !== params.length) throw new Error(`compiledOnce: ${params.length} parameters for ${q.parameters.length} placeholders`);
    const { rows } = await k.executeQuery<R>({ sql: q.sql, query: q.query, parameters: params, queryId: createQueryId() });
    return rows;
  };
}
