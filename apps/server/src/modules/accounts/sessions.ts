import crypto from 'node:crypto';
import { CompiledQuery, sql } from 'kysely';
import { Status } from '@cfx/contract/envelope.ts';
import type { SessionItem } from '@cfx/contract/account-security.ts';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import { inTx, rowParts } from '../../db/tx.ts';
import { ChangeCache } from '../../db/change-feed.ts';
import { ApiError } from '../../http/envelope.ts';
import { randomToken, sha256 } from '../../util/crypto.ts';
import { deviceSummary, maskIp, type ClientMeta } from './client-info.ts';
import { recordSecurityEvent } from './security-log.ts';

/** A session's last_seen_at is written at most this often (the session check reads it on every call). */
export const LAST_SEEN_EVERY_MS = 60_000;

/**
 * Session tokens are random, stored only as a SHA-256 hash, expire, and are revoked by logout.
 * Each session also has a random public id (`sid`: what the session list shows and revoke takes)
 * and keeps the user agent and IP of the login that created it.
 */
export async function createSession(ctx: AppContext, userId: number, meta?: ClientMeta | null): Promise<string> {
  const token = randomToken(32);
  const now = ctx.now();
  await ctx.db.kysely
    .insertInto('sessions')
    .values({
      token_hash: sha256(token),
      user_id: userId,
      created_at: now,
      expires_at: now + ctx.config.sessionTtlMs,
      revoked_at: null,
      sid: crypto.randomBytes(16).toString('hex'),
      user_agent: meta?.userAgent || null,
      ip: meta?.ip || null,
      last_seen_at: now,
    })
    .execute();
  return token;
}

/** Compiled once per database (placeholders only); run with fresh parameters on every request. */
const profiles = new WeakMap<object, CompiledQuery<SessionProfileRow>>();
function profileQuery(ctx: AppContext): CompiledQuery<SessionProfileRow> {
  let q = profiles.get(ctx.db);
  if (!q) {
    q = ctx.db.kysely
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .innerJoin('profpics', 'profpics.id', 'users.profpic_id')
      .select(['users.nickname', 'users.is_realname', 'users.wallet_address', 'users.mobile', 'users.is_creator', 'users.account_id', 'profpics.url', 'sessions.last_seen_at'])
      .where('sessions.token_hash', '=', '')
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', 0)
      .where('users.frozen_at', 'is', null)
      .compile();
    profiles.set(ctx.db, q);
  }
  return q;
}

export interface SessionProfileRow {
  nickname: string;
  is_realname: number;
  wallet_address: string | null;
  mobile: string;
  is_creator: number;
  account_id: string;
  url: string;
  last_seen_at: number | null;
}

/** How long a recorded activity waits in memory before it is written (flushSessionTouches). */
export const TOUCH_FLUSH_MS = 5_000;
/** Sessions per UPDATE of a flush. */
const TOUCH_CHUNK = 200;

interface Touches {
  /** token hash → the time of its activity, not written yet. */
  pending: Map<string, number>;
  timer?: NodeJS.Timeout;
  flushing?: Promise<void>;
}
const touchQueues = new WeakMap<object, Touches>();
function touchesOf(ctx: AppContext): Touches {
  let t = touchQueues.get(ctx.db);
  if (!t) touchQueues.set(ctx.db, (t = { pending: new Map() }));
  return t;
}

/**
 * Records activity of a session at most once a minute, in memory: the writes of a TOUCH_FLUSH_MS
 * stretch go out together (flushSessionTouches), ≤ 200 sessions per UPDATE. Each was a write of its
 * own — on SQLite an autocommit, at the first call of every buyer of a drop whose page had waited over
 * a minute for the sale (bench/drop.ts seeds such sessions), and on PostgreSQL an UPDATE in the session
 * lookup. A crash loses at most the last seconds of "last seen".
 */
function touchSession(ctx: AppContext, hash: string, lastSeen: number | null, cached?: SessionEntry) {
  const now = ctx.now();
  if (lastSeen !== null && now - Number(lastSeen) < LAST_SEEN_EVERY_MS) return;
  if (cached) cached.lastSeenAt = now;
  const t = touchesOf(ctx);
  t.pending.set(hash, now);
  if (!t.timer) {
    t.timer = setTimeout(() => void flushSessionTouches(ctx).catch(() => undefined), TOUCH_FLUSH_MS);
    t.timer.unref();
  }
}

/**
 * Writes the recorded activity now (the timer's flush; the app's close; tests). What a failed write
 * held is dropped (it is only "last seen"); the timer and the close ignore the error, a test sees it.
 */
export async function flushSessionTouches(ctx: AppContext): Promise<void> {
  const t = touchQueues.get(ctx.db);
  if (!t) return;
  clearTimeout(t.timer);
  t.timer = undefined;
  while (t.flushing) await t.flushing;
  if (!t.pending.size) return;
  const rows = [...t.pending];
  t.pending.clear();
  t.flushing = (async () => {
    if (ctx.db.dialect === 'postgres') {
      // One statement for them all, joined by hash (at a drop's start ≈ 5,200 sessions were 26 statements of 200,
      // each a round trip; the rows' writes cost the same either way).
      await sql`update sessions set last_seen_at = v.t
        from (select unnest(${rows.map(([hash]) => hash)}::text[]) as h, unnest(${rows.map(([, time]) => time)}::bigint[]) as t) as v
        where sessions.token_hash = v.h and sessions.revoked_at is null`.execute(ctx.db.kysely);
      return;
    }
    for (const part of rowParts(ctx, rows, TOUCH_CHUNK)) {
      const at = sql.join(part.map(([hash, time]) => sql`when ${hash} then ${time}`), sql` `);
      await ctx.db.kysely
        .updateTable('sessions')
        .set({ last_seen_at: sql<number>`cast(case token_hash ${at} end as bigint)` })
        .where('token_hash', 'in', part.map(([hash]) => hash))
        .where('revoked_at', 'is', null)
        .execute();
    }
  })();
  try {
    await t.flushing;
  } finally {
    t.flushing = undefined;
  }
}

/** A session's activity recorded by this process and not written yet (listSessions shows it). */
function pendingTouch(ctx: AppContext, hash: string): number | undefined {
  return touchQueues.get(ctx.db)?.pending.get(hash);
}

interface SessionEntry {
  userId: number;
  lastSeenAt: number | null;
  expiresAt: number;
}
/**
 * Live sessions by token hash, per process: the session check of every call answered from memory.
 * Exact: forgotten on a change to `sessions` (revoked, expiry moved) or `users` (frozen) in this
 * or another process (db/change-feed.ts); the expiry is checked on every use; at most 60 s old.
 */
/** A new session or user changes no cached session; a user's freeze does (the session check refuses frozen users). */
const SESSION_WATCH = [
  { table: 'sessions', columns: ['revoked_at', 'expires_at', 'user_id'], inserts: false },
  { table: 'users', columns: ['frozen_at'], inserts: false },
] as const;
const sessionCaches = new WeakMap<object, ChangeCache<string, SessionEntry>>();
function sessionCache(ctx: AppContext): ChangeCache<string, SessionEntry> {
  let c = sessionCaches.get(ctx.db);
  if (!c) sessionCaches.set(ctx.db, (c = new ChangeCache(ctx.db.changes, SESSION_WATCH, { ttlMs: 60_000, max: 200_000, now: () => ctx.monotonicNow() })));
  return c;
}

/** The session cache's generation now: pass it to primeSessions with rows read after this call. */
export function sessionGeneration(ctx: AppContext): number {
  return sessionCache(ctx).generation();
}

/**
 * Puts live sessions read at generation `gen` into this process's session cache, as lookups would
 * (the warm-up before a drop's sale: kyc/require-trader.ts warmTraders). Nothing is kept when a change came in since.
 */
export function primeSessions(ctx: AppContext, rows: readonly { hash: string; row: SessionRow }[], gen: number): void {
  const cache = sessionCache(ctx);
  for (const { hash, row } of rows) {
    cache.set(hash, entryOf(row), gen);
  }
}

/** A session's cache entry from its row (a lookup's or the warm-up's). */
function entryOf(row: SessionRow): SessionEntry {
  return { userId: Number(row.user_id), lastSeenAt: row.last_seen_at === null ? null : Number(row.last_seen_at), expiresAt: Number(row.expires_at) };
}

/** A live session's row as a lookup returns it. */
export interface SessionRow {
  user_id: number;
  last_seen_at: number | null;
  expires_at: number;
}

/**
 * The SQL of a session lookup by token hash, with `extra` columns and joins of the caller's (the
 * trading gate reads its row in the same statement: kyc/require-trader.ts). Only live sessions of
 * users not frozen (freezing also revokes them; this closes the race with a login in flight).
 * Parameters: the token hash, now. A read only: the activity it finds due is recorded in memory and
 * written later with others (touchSession).
 */
export function sessionLookupSql(dialect: 'sqlite' | 'postgres', extra: { select: string; join: string } = { select: '', join: '' }): string {
  const [hash, now] = dialect === 'postgres' ? ['$1', '$2'] : ['?', '?'];
  return `select sessions.user_id, sessions.last_seen_at, sessions.expires_at${extra.select}
    from sessions inner join users on users.id = sessions.user_id${extra.join}
    where sessions.token_hash = ${hash} and sessions.revoked_at is null and sessions.expires_at > ${now} and users.frozen_at is null`;
}

/** Runs a session lookup's SQL (sessionLookupSql) with its parameters. */
export async function runSessionLookup<R extends SessionRow>(ctx: AppContext, query: CompiledQuery<R>, hash: string, now: number): Promise<R | undefined> {
  const [row] = await ctx.db.run(query, [hash, now]);
  return row;
}

const lookups = new WeakMap<object, CompiledQuery<SessionRow>>();
function loadSession(ctx: AppContext, hash: string, now: number): Promise<SessionRow | undefined> {
  let q = lookups.get(ctx.db);
  if (!q) lookups.set(ctx.db, (q = CompiledQuery.raw(sessionLookupSql(ctx.db.dialect)) as CompiledQuery<SessionRow>));
  return runSessionLookup(ctx, q, hash, now);
}

/**
 * The user of a live session, from this process's cache or one lookup. `load` replaces the lookup
 * on a miss (a caller that reads more in the same statement; it must keep sessionLookupSql's rows).
 */
export async function findSessionUser(
  ctx: AppContext,
  token: string,
  load: (ctx: AppContext, hash: string, now: number) => Promise<SessionRow | undefined> = loadSession,
): Promise<number | undefined> {
  const hash = sha256(token);
  const cache = sessionCache(ctx);
  const now = ctx.now();
  const hit = cache.get(hash);
  if (hit && hit.expiresAt > now) {
    touchSession(ctx, hash, hit.lastSeenAt, hit);
    return hit.userId;
  }
  const gen = cache.generation();
  const row = await load(ctx, hash, now);
  if (!row) return undefined;
  const entry = entryOf(row);
  cache.set(hash, entry, gen);
  touchSession(ctx, hash, entry.lastSeenAt, entry);
  return entry.userId;
}

/** The profile of a token's user in one query (the hot path of every page load). */
export async function findSessionProfile(ctx: AppContext, token: string): Promise<SessionProfileRow | undefined> {
  const hash = sha256(token);
  const [row] = await ctx.db.run(profileQuery(ctx), [hash, ctx.now()]);
  if (row) touchSession(ctx, hash, row.last_seen_at);
  return row;
}

export async function revokeSession(ctx: AppContext, token: string): Promise<boolean> {
  const res = await ctx.db.kysely
    .updateTable('sessions')
    .set({ revoked_at: ctx.now() })
    .where('token_hash', '=', sha256(token))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function revokeAllSessions(ctx: AppContext, userId: number): Promise<void> {
  await ctx.db.kysely.updateTable('sessions').set({ revoked_at: ctx.now() }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

/** Revokes every live session of the user except the one with `keepHash` (inside the caller's transaction). */
export async function revokeOtherSessions(q: Q, userId: number, keepHash: string | null, now: number): Promise<number> {
  let u = q.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepHash) u = u.where('token_hash', '<>', keepHash);
  const res = await u.executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** My live sessions, most recently active first; the caller's own one flagged `current`. No token hash leaves here. */
export async function listSessions(ctx: AppContext, userId: number, token: string): Promise<SessionItem[]> {
  const now = ctx.now();
  const mine = sha256(token);
  const rows = await ctx.db.kysely
    .selectFrom('sessions')
    .select(['token_hash', 'sid', 'user_agent', 'ip', 'created_at', 'last_seen_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .where('sid', 'is not', null)
    .execute();
  return rows
    .map((r) => ({
      id: r.sid!,
      current: r.token_hash === mine,
      device: deviceSummary(r.user_agent),
      ip: maskIp(r.ip),
      createdAt: Number(r.created_at),
      lastSeenAt: Math.max(Number(r.last_seen_at ?? r.created_at), pendingTouch(ctx, r.token_hash) ?? 0),
      expiresAt: Number(r.expires_at),
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastSeenAt - a.lastSeenAt || b.createdAt - a.createdAt);
}

/**
 * Revokes one of my other sessions (`id`) or all of them (`others`). The current session is never
 * revoked here (that is logout). Another user's session id is "not found", like an unknown one.
 */
export async function revokeMySessions(
  ctx: AppContext,
  userId: number,
  token: string,
  input: { id?: string | null; others?: boolean | null },
  meta: ClientMeta,
): Promise<{ revoked: number }> {
  const now = ctx.now();
  const mine = sha256(token);
  if (input.others) {
    return inTx(ctx, async (trx) => {
      const revoked = await revokeOtherSessions(trx, userId, mine, now);
      if (revoked > 0) await recordSecurityEvent(trx, { userId, kind: 'sessions_revoked', meta, detail: { count: revoked }, at: now });
      return { revoked };
    });
  }
  const id = input.id?.trim();
  if (!id) throw new ApiError(Status.INVALID, 'badParams');
  return inTx(ctx, async (trx) => {
    const target = await trx.selectFrom('sessions').select(['token_hash']).where('sid', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (target?.token_hash === mine) throw new ApiError(Status.INVALID, 'sessionCurrent');
    const res = await trx
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('sid', '=', id)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.INVALID, 'sessionNotFound');
    await recordSecurityEvent(trx, { userId, kind: 'session_revoked', meta, at: now });
    return { revoked: 1 };
  });
}
