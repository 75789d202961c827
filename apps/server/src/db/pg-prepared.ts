import crypto from 'node:crypto';
import type pg from 'pg';

/**
 * Named prepared statements on PostgreSQL for the SQL texts this process runs again and again.
 *
 * Kysely sends every query unnamed, so PostgreSQL parses, analyses and plans it anew each time. A
 * CPU profile of the database during a drop (bench/drop.ts, `perf record`) put parsing and planning
 * at ≈ 40 % of PostgreSQL's time, more than executing. A text run `minUses` times gets a name (a
 * hash of the text); each connection then parses it once and reuses its plan (PostgreSQL's plan
 * cache: custom plans for the first runs, a generic one when that is no worse; ANALYZE and DDL
 * invalidate them).
 *
 * Bounds: at most `perConnection` named statements per connection (each costs the backend its
 * parse tree and plans), at most MAX_TEXTS texts counted or named per process; beyond them a query
 * simply runs unnamed. Texts that select `*` are never named: a column added by a migration would
 * change the cached result type, which PostgreSQL refuses for a prepared statement.
 */
export class StatementNames {
  private readonly uses = new Map<string, number>();
  private readonly names = new Map<string, string>();
  private readonly perClient = new WeakMap<object, Set<string>>();

  constructor(
    readonly perConnection: number,
    private readonly minUses = 3,
  ) {}

  /** The statement name to run `text` under on `client`, or undefined to run it unnamed. */
  nameFor(client: object, text: string): string | undefined {
    if (this.perConnection <= 0) return undefined;
    let name = this.names.get(text);
    if (!name) {
      if (SELECTS_STAR.test(text)) return undefined;
      const n = (this.uses.get(text) ?? 0) + 1;
      if (n < this.minUses || this.names.size >= MAX_TEXTS) {
        if (this.uses.has(text) || this.uses.size < MAX_TEXTS) this.uses.set(text, n);
        return undefined;
      }
      this.uses.delete(text);
      name = `q_${crypto.createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
      this.names.set(text, name);
    }
    let mine = this.perClient.get(client);
    if (!mine) this.perClient.set(client, (mine = new Set()));
    if (!mine.has(name)) {
      if (mine.size >= this.perConnection) return undefined;
      mine.add(name);
    }
    return name;
  }

  /**
   * Wraps a pool client's `query(text, values)` (how Kysely's PostgreSQL driver and `Db.run` call it)
   * to run hot texts under their names. Once per client: a pool hands the same client out again.
   */
  wrap<C extends pg.PoolClient>(client: C): C {
    const c = client as C & { [WRAPPED]?: true };
    if (this.perConnection <= 0 || c[WRAPPED]) return client;
    c[WRAPPED] = true;
    const query = client.query.bind(client) as (...a: unknown[]) => unknown;
    (client as { query: unknown }).query = (...a: unknown[]) => {
      if (a.length <= 2 && typeof a[0] === 'string' && (a[1] === undefined || Array.isArray(a[1]))) {
        const name = this.nameFor(client, a[0]);
        if (name) return query({ name, text: a[0], values: a[1] });
      }
      return query(...a);
    };
    return client;
  }
}

const WRAPPED = Symbol('named statements');
/** Counted or named texts per process (a query's text, not its values: the batches' row counts make the most). */
const MAX_TEXTS = 5000;
/** `select *`, `select "t".*`, `, *`, `returning *`: a result shape that follows the table's columns. */
const SELECTS_STAR = /(?:select|,|returning)\s+(?:"?\w+"?\.)?\*/i;
