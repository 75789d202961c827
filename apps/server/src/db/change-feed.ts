import pg from 'pg';
import type { KyselyPlugin, OperationNode, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/**
 * Tells in-process caches that rows of some tables changed, in this process or in another one on the
 * same database, so a cache can be exact instead of timed:
 *
 * - this process's writes: a Kysely plugin sees every INSERT / UPDATE / DELETE built with Kysely
 *   (inside transactions too) and names its table;
 * - PostgreSQL: triggers (migration 0032) `NOTIFY cfx_table_changed, '<table>'` at COMMIT of any
 *   connection's change to a watched table, and each process LISTENs on a connection of its own.
 *   While that connection is down the feed is not `reliable()` (a cache must not serve then);
 * - SQLite: another connection's commit (another process on the file, the worker lease's own
 *   connection) changes `PRAGMA data_version` of ours; `poll()` reads it (microseconds, at most once
 *   per turn of the event loop). When it moved, the per-table counters of migration 0033 (triggers)
 *   say which watched tables changed, and only their caches forget; a watched table without a
 *   counter (or a database before 0033) counts as changed. A write this process reported at its
 *   statement and then rolled back is reported again at the rollback (`rolledBack`), so a cache
 *   that read the uncommitted row in between forgets it.
 *
 * Raw SQL strings and `Db.run` statements are not seen: watched tables are written through Kysely
 * (the one `Db.run` write, the session's last-seen time, changes nothing a cache keeps).
 */
/**
 * What a cache depends on: a table, optionally only some of its columns (an UPDATE setting none of
 * them is not a change for it) and not its inserts (a new row cannot make a cached row wrong when
 * the cache keeps no "not found"). Deletes always count.
 */
export interface Watch {
  table: string;
  columns?: readonly string[];
  inserts?: boolean;
}

export interface ChangeFeed {
  /** Calls `fn` after a change of any watched table; returns the unsubscribe. */
  on(watches: readonly Watch[], fn: () => void): () => void;
  /** False while changes of other processes could be missed: serve nothing from a cache then. */
  reliable(): boolean;
  /** Checks for changes made by other connections where that is a poll (SQLite); a no-op on PostgreSQL. */
  poll(): void;
  /** The plugin that reports this process's Kysely writes (installed on the database's Kysely). */
  readonly plugin: KyselyPlugin;
  /**
   * SQLite's one connection: a transaction began / rolled back. The tables whose writes were reported
   * since the begin are reported again at the rollback (a cache may have read their uncommitted rows).
   */
  began(): void;
  rolledBack(): void;
  close(): Promise<void>;
}

/** The PostgreSQL channel of the change triggers (migration 0032). */
export const CHANGE_CHANNEL = 'cfx_table_changed';

function nameOf(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  const n = node as OperationNode & { node?: OperationNode; table?: { identifier?: { name?: string } } };
  if (n.kind === 'AliasNode') return nameOf(n.node);
  if (n.kind === 'TableNode') return n.table?.identifier?.name;
  return undefined;
}

/** What a root query writes: its table, the kind of write, the columns an UPDATE sets; undefined for reads and raw SQL. */
export function writeOf(node: RootOperationNode): { tables: string[]; kind: 'insert' | 'update' | 'delete'; columns?: string[] } | undefined {
  const n = node as unknown as { kind: string; table?: OperationNode; into?: OperationNode; from?: { froms?: OperationNode[] }; updates?: { column?: { column?: { name?: string } } }[] };
  const named = (xs: (string | undefined)[]) => xs.filter((x): x is string => !!x);
  if (n.kind === 'UpdateQueryNode') return { tables: named([nameOf(n.table)]), kind: 'update', columns: named((n.updates ?? []).map((u) => u.column?.column?.name)) };
  if (n.kind === 'InsertQueryNode') return { tables: named([nameOf(n.into)]), kind: 'insert' };
  if (n.kind === 'DeleteQueryNode') return { tables: named((n.from?.froms ?? []).map(nameOf)), kind: 'delete' };
  return undefined;
}

function matches(w: Watch, write: NonNullable<ReturnType<typeof writeOf>>): boolean {
  if (write.kind === 'insert') return w.inserts !== false;
  if (write.kind === 'update' && w.columns && write.columns) return write.columns.some((c) => w.columns!.includes(c));
  return true;
}

export function createChangeFeed(opts: {
  postgresUrl?: string;
  /** SQLite: the connection's `PRAGMA data_version`. */
  dataVersion?: () => number;
  /** SQLite: the change counters by table (migration 0033); undefined where they cannot be read. */
  counters?: () => ReadonlyMap<string, number> | undefined;
  log?: (msg: string, extra?: unknown) => void;
}): ChangeFeed {
  const listeners = new Map<string, Set<{ w: Watch; fn: () => void }>>();
  const fireTable = (table: string) => {
    const set = listeners.get(table);
    if (set) for (const l of set) l.fn();
  };
  const fireAll = () => {
    for (const set of listeners.values()) for (const l of set) l.fn();
  };
  // Writes are reported once their statement has run (the plugin's result hook), so a read that
  // follows the write in this process never finds the cache holding the state before it.
  const pending = new WeakMap<object, { tables: string[]; fns: (() => void)[] }>();
  /** SQLite: the watched tables written since the transaction began (one connection, one transaction at a time). */
  const writtenInTx = new Set<string>();
  const plugin: KyselyPlugin = {
    transformQuery(args: PluginTransformQueryArgs) {
      if (listeners.size) {
        const write = writeOf(args.node);
        if (write) {
          const due = { tables: [] as string[], fns: [] as (() => void)[] };
          for (const t of write.tables) {
            const before = due.fns.length;
            for (const l of listeners.get(t) ?? []) if (matches(l.w, write)) due.fns.push(l.fn);
            if (due.fns.length > before) due.tables.push(t);
          }
          if (due.fns.length) pending.set(args.queryId, due);
        }
      }
      return args.node;
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      const due = pending.get(args.queryId);
      if (due) {
        pending.delete(args.queryId);
        for (const t of due.tables) writtenInTx.add(t);
        for (const fn of due.fns) fn();
      }
      return args.result;
    },
  };

  let lastVersion: number | undefined;
  let lastCounts: ReadonlyMap<string, number> | undefined;
  let polledThisTurn = false;
  const endTurn = () => {
    polledThisTurn = false;
  };
  let pgClient: pg.Client | undefined;
  let pgReady = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  async function listen() {
    if (closed || !opts.postgresUrl) return;
    const client = new pg.Client({ connectionString: opts.postgresUrl });
    pgClient = client;
    const down = (why: string) => {
      if (pgClient !== client) return;
      pgReady = false;
      pgClient = undefined;
      fireAll();
      client.end().catch(() => {});
      if (!closed) {
        opts.log?.('change feed: the LISTEN connection is down; caches bypassed until it is back', { why });
        retry = setTimeout(() => void listen(), 1000);
      }
    };
    client.on('error', (err) => down(String(err)));
    client.on('end', () => down('connection ended'));
    client.on('notification', (msg) => {
      if (msg.channel === CHANGE_CHANNEL && msg.payload) fireTable(msg.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      if (pgClient !== client) return;
      // Anything may have changed while nobody listened.
      fireAll();
      pgReady = true;
    } catch (err) {
      down(String(err));
    }
  }

  return {
    plugin,
    on(watches, fn) {
      const first = listeners.size === 0;
      const added: [string, { w: Watch; fn: () => void }][] = [];
      for (const w of watches) {
        let set = listeners.get(w.table);
        if (!set) listeners.set(w.table, (set = new Set()));
        const l = { w, fn };
        set.add(l);
        added.push([w.table, l]);
      }
      if (first && opts.postgresUrl && !pgClient) void listen();
      return () => {
        for (const [t, l] of added) listeners.get(t)?.delete(l);
      };
    },
    reliable: () => (opts.postgresUrl ? pgReady : !closed),
    poll() {
      if (!opts.dataVersion || closed || polledThisTurn) return;
      // Once per turn of the event loop. The events of a turn (requests, replies) were all read before
      // its first poll ran, so a commit of another process that happened before any of them is seen;
      // under load a turn serves many requests, and polling for each cost ≈ 9 % of the process.
      polledThisTurn = true;
      setImmediate(endTurn);
      const v = opts.dataVersion();
      if (v === lastVersion) return;
      // Read after data_version: a commit in between shows in the counters now and as another new
      // data_version at the next poll, whose counters then have nothing new.
      const counts = opts.counters?.();
      if (lastVersion !== undefined) {
        if (!counts || !lastCounts) fireAll();
        else for (const table of [...listeners.keys()]) if (counts.get(table) === undefined || counts.get(table) !== lastCounts.get(table)) fireTable(table);
      }
      lastVersion = v;
      lastCounts = counts;
    },
    began() {
      writtenInTx.clear();
    },
    rolledBack() {
      const tables = [...writtenInTx];
      writtenInTx.clear();
      for (const t of tables) fireTable(t);
    },
    async close() {
      closed = true;
      pgReady = false;
      if (retry) clearTimeout(retry);
      const c = pgClient;
      pgClient = undefined;
      await c?.end().catch(() => {});
    },
  };
}

/**
 * A bounded in-process cache that forgets everything when one of its tables changes (change feed),
 * and serves nothing while the feed is not reliable. Entries also expire after `ttlMs` of the
 * cache clock: a bound for what the feed cannot see (a raw SQL write of this process to a watched
 * table, which the code does not make).
 * A read that raced with a change is not stored: `set` takes the generation taken before the read.
 */
export class ChangeCache<K, V> {
  private map = new Map<K, { v: V; at: number }>();
  private gen = 0;
  constructor(
    private readonly feed: ChangeFeed,
    watches: readonly Watch[],
    private readonly opts: { ttlMs: number; max: number; now: () => number },
  ) {
    feed.on(watches, () => this.clear());
  }

  /** The generation to pass to `set` for a value read from the database now. */
  generation(): number {
    return this.gen;
  }

  get(key: K): V | undefined {
    this.feed.poll();
    if (!this.feed.reliable()) return undefined;
    const e = this.map.get(key);
    if (!e) return undefined;
    if (this.opts.now() - e.at > this.opts.ttlMs) {
      this.map.delete(key);
      return undefined;
    }
    return e.v;
  }

  /** Stores `value` read at generation `gen`, unless a change came in since. */
  set(key: K, value: V, gen: number): void {
    if (gen !== this.gen || !this.feed.reliable()) return;
    if (this.map.size >= this.opts.max) this.map.clear();
    this.map.set(key, { v: value, at: this.opts.now() });
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  clear(): void {
    this.gen++;
    this.map.clear();
  }
}
