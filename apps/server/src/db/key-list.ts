import { sql, type RawBuilder } from 'kysely';

/**
 * The keys of `column in (…)`. On SQLite one JSON parameter read by `json_each` — one SQL text (one
 * prepared statement) whatever the number of keys, where `in (?, ?, …)` is a text per count (as with
 * multi-row statements, db/tx.ts rowParts) and evicts the fixed statements from the connection's cache; SQLite still finds the rows
 * by the column's index (`SEARCH … USING INDEX (order_no=?)` for each key). On PostgreSQL the keys as
 * Kysely binds them.
 */
export function keyList<V extends string | number>(ctx: { db: { dialect: string } }, keys: readonly V[]): readonly V[] | RawBuilder<V> {
  return ctx.db.dialect === 'sqlite' ? sql<V>`(select value from json_each(${JSON.stringify(keys)}))` : keys;
}
