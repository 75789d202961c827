import type { CompiledQuery, Compilable } from 'kysely';
import type { AppContext } from '../../context.ts';

/**
 * Queries whose SQL depends only on their shape (which filters are present, which sort) are built
 * with Kysely once per shape and database, with named placeholders; later calls bind values by name
 * and run the cached prepared statement (Db.run) — no query building on the hot path.
 *
 * `build` gets `p(name)`, which stands for a value; every parameter of the built query must be one.
 */
export type Param = <T = never>(name: string) => T;
const MARK = '\u0001';
const param: Param = <T,>(name: string) => `${MARK}${name}` as unknown as T;
const cache = new WeakMap<object, Map<string, { query: CompiledQuery<unknown>; names: string[] }>>();

export async function runShaped<R>(ctx: AppContext, shape: string, build: (p: Param) => Compilable<unknown>, values: Record<string, unknown>): Promise<R[]> {
  let byShape = cache.get(ctx.db);
  if (!byShape) cache.set(ctx.db, (byShape = new Map()));
  let entry = byShape.get(shape);
  if (!entry) {
    const query = build(param).compile();
    const names = query.parameters.map((v) => {
      if (typeof v !== 'string' || !v.startsWith(MARK)) throw new Error(`query shape ${shape}: a parameter is not a named placeholder`);
      return v.slice(1);
    });
    entry = { query, names };
    if (byShape.size > 1000) byShape.clear();
    byShape.set(shape, entry);
  }
  return ctx.db.run<R>(entry.query as CompiledQuery<R>, entry.names.map((n) => {
    if (!(n in values)) throw new Error(`query shape ${shape}: no value for ${n}`);
    return values[n];
  }));
}
