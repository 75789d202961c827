import type { ServerResponse } from 'node:http';
import pg from 'pg';
import type { Lang } from '@cfx/contract/messages.ts';
import type { AppContext } from '../../context.ts';
import { unreadCount } from './list-messages.ts';
import { messageView } from './render.ts';
import { localBus, MESSAGE_CHANNEL } from './signal.ts';
import './tables.ts';

/** One open SSE stream. */
export interface StreamConn {
  userId: number;
  /** The session the stream's ticket came from: the stream ends when it is revoked or expires. */
  sid: string;
  lang: Lang;
  res: ServerResponse;
  /** The newest message id this stream has pushed (or that existed when it opened). */
  lastId: number;
  lastCount: number | null;
  refreshing: boolean;
  dirty: boolean;
  closed: boolean;
}

/** A stream whose client reads too slowly for this many buffered bytes is dropped (it reconnects). */
const MAX_BUFFERED = 256 * 1024;
/** New messages pushed per refresh at most (the unread count covers the rest). */
const PUSH_MAX = 20;

/**
 * The SSE streams of this process, by user. A signal for a user (signal.ts: PostgreSQL
 * LISTEN/NOTIFY, or the in-process emitter on SQLite) makes each of their streams read what is new
 * — messages after the last one it pushed, and the unread count — and push it. Refreshes of one
 * stream are coalesced (a burst of signals costs one or two reads). Every heartbeatMs each stream
 * gets a comment line (keeps proxies from closing it) and the sessions behind the streams are
 * checked: a stream of a logged-out or revoked session gets `event: logout` and is closed.
 */
export class MessageHub {
  private byUser = new Map<number, Set<StreamConn>>();
  private heartbeat: NodeJS.Timeout | undefined;
  private listener: pg.Client | undefined;
  private listening: Promise<void> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly onLocal = (userId: number) => this.signal(userId);

  constructor(
    private readonly ctx: AppContext,
    private readonly log: (msg: string, extra?: unknown) => void = () => {},
  ) {
    if (ctx.db.dialect === 'sqlite') localBus(ctx.db).on('user', this.onLocal);
  }

  /** Open streams of a user on this process. */
  count(userId: number): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  get size(): number {
    let n = 0;
    for (const s of this.byUser.values()) n += s.size;
    return n;
  }

  /** Registers an open stream and pushes the current unread count (and messages after `after`, if given). */
  async open(conn: StreamConn, after?: number): Promise<void> {
    // Registered before anything is awaited: the per-user cap counts it at once, and a client that
    // goes away meanwhile is removed by its 'close'.
    let set = this.byUser.get(conn.userId);
    if (!set) this.byUser.set(conn.userId, (set = new Set()));
    set.add(conn);
    conn.res.on('close', () => this.close(conn));
    if (conn.res.destroyed) return this.close(conn);
    this.startHeartbeat();
    await this.ensureListening();
    if (conn.closed) return;
    const newest = await this.ctx.db.kysely.selectFrom('messages').select((eb) => eb.fn.max('id').as('id')).where('user_id', '=', conn.userId).executeTakeFirst();
    const maxId = Number(newest?.id ?? 0);
    conn.lastId = after !== undefined && after >= 0 && after < maxId ? after : maxId;
    await this.refresh(conn);
  }

  close(conn: StreamConn, event?: 'logout') {
    if (conn.closed) return;
    conn.closed = true;
    if (event) this.write(conn, `event: ${event}\ndata: {}\n\n`);
    const set = this.byUser.get(conn.userId);
    set?.delete(conn);
    if (set && set.size === 0) this.byUser.delete(conn.userId);
    if (!conn.res.writableEnded) conn.res.end();
    if (this.size === 0) this.stopHeartbeat();
  }

  /** Something changed in this user's messages: their streams on this process look. */
  signal(userId: number) {
    const set = this.byUser.get(userId);
    if (!set) return;
    for (const c of set) void this.refresh(c);
  }

  /** Reads what is new for one stream and pushes it; coalesces concurrent calls. */
  async refresh(conn: StreamConn): Promise<void> {
    if (conn.closed) return;
    if (conn.refreshing) {
      conn.dirty = true;
      return;
    }
    conn.refreshing = true;
    try {
      do {
        conn.dirty = false;
        const rows = await this.ctx.db.kysely
          .selectFrom('messages')
          .select(['id', 'kind', 'title_key', 'body_key', 'params', 'link', 'read_at', 'created_at'])
          .where('user_id', '=', conn.userId)
          .where('in_app', '=', 1)
          .where('id', '>', conn.lastId)
          .orderBy('id', 'asc')
          .limit(PUSH_MAX)
          .execute();
        const count = await unreadCount(this.ctx.db.kysely, conn.userId);
        if (conn.closed) return;
        for (const r of rows) {
          conn.lastId = Math.max(conn.lastId, Number(r.id));
          this.write(conn, `id: ${Number(r.id)}\nevent: message\ndata: ${JSON.stringify(messageView(r, conn.lang))}\n\n`);
        }
        if (count !== conn.lastCount) {
          conn.lastCount = count;
          this.write(conn, `event: unread\ndata: ${JSON.stringify({ count })}\n\n`);
        }
      } while (conn.dirty && !conn.closed);
    } catch (err) {
      this.log('message stream refresh failed', { err: String(err) });
    } finally {
      conn.refreshing = false;
    }
  }

  private write(conn: StreamConn, chunk: string) {
    const res = conn.res;
    if (res.writableEnded || res.destroyed) return;
    if (res.writableLength > MAX_BUFFERED) {
      res.destroy();
      return;
    }
    res.write(chunk);
  }

  private startHeartbeat() {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => void this.beat(), this.ctx.config.messages.heartbeatMs);
    this.heartbeat.unref();
  }

  private stopHeartbeat() {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  /** Heartbeat comment on every stream, and streams of ended sessions closed with `event: logout`. */
  async beat(): Promise<void> {
    const conns = [...this.byUser.values()].flatMap((s) => [...s]);
    if (!conns.length) return;
    for (const c of conns) this.write(c, ': ping\n\n');
    const sids = [...new Set(conns.map((c) => c.sid))];
    const live = new Set<string>();
    try {
      for (let i = 0; i < sids.length; i += 500) {
        const rows = await this.ctx.db.kysely
          .selectFrom('sessions')
          .select('sid')
          .where('sid', 'in', sids.slice(i, i + 500))
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', this.ctx.now())
          .execute();
        for (const r of rows) if (r.sid) live.add(r.sid);
      }
    } catch (err) {
      this.log('message stream session check failed', { err: String(err) });
      return;
    }
    for (const c of conns) if (!live.has(c.sid)) this.close(c, 'logout');
  }

  /** PostgreSQL: one LISTEN connection per process, opened with the first stream, re-opened after a failure. */
  private ensureListening(): Promise<void> {
    if (this.ctx.db.dialect !== 'postgres' || this.stopped) return Promise.resolve();
    this.listening ??= this.connectListener().catch((err) => {
      this.listening = undefined;
      throw err;
    });
    return this.listening;
  }

  private async connectListener(): Promise<void> {
    const client = new pg.Client({ connectionString: this.ctx.config.databaseUrl });
    client.on('notification', (n) => {
      if (n.channel !== MESSAGE_CHANNEL) return;
      const userId = Number(n.payload);
      if (Number.isSafeInteger(userId)) this.signal(userId);
    });
    client.on('error', (err) => {
      this.log('message listener failed', { err: String(err) });
      this.dropListener(client);
    });
    client.on('end', () => this.dropListener(client));
    await client.connect();
    await client.query(`LISTEN ${MESSAGE_CHANNEL}`);
    this.listener = client;
  }

  /** The LISTEN connection was lost: reconnect after a delay (signals may have been missed meanwhile). */
  private dropListener(client: pg.Client) {
    if (this.listener !== client) return;
    this.listener = undefined;
    this.listening = undefined;
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  /** Reconnects while streams are open; once listening again, every stream re-reads. */
  private scheduleReconnect() {
    if (this.stopped || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.stopped || this.size === 0) return;
      this.ensureListening().then(
        () => {
          for (const set of this.byUser.values()) for (const c of set) void this.refresh(c);
        },
        () => this.scheduleReconnect(),
      );
    }, 1000);
    this.reconnectTimer.unref();
  }

  /** Ends every stream (before the server closes: open streams would keep it from closing) and the listener. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.ctx.db.dialect === 'sqlite') localBus(this.ctx.db).off('user', this.onLocal);
    for (const set of [...this.byUser.values()]) for (const c of [...set]) this.close(c);
    this.stopHeartbeat();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    await this.listening?.catch(() => undefined);
    const l = this.listener;
    this.listener = undefined;
    await l?.end().catch(() => undefined);
  }
}
