import crypto from 'node:crypto';
import { CompiledQuery } from 'kysely';
import { Status } from '@cfx/contract/envelope.ts';
import type { SessionItem } from '@cfx/contract/account-security.ts';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import { inTx } from '../../db/tx.ts';
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
const compiled = new WeakMap<
  object,
  { profile: CompiledQuery<SessionProfileRow>; touch: CompiledQuery<unknown> }
>();
function queries(ctx: AppContext) {
  let q = compiled.get(ctx.db);
  if (!q) {
    const k = ctx.db.kysely;
    q = {
      profile: k
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .innerJoin('profpics', 'profpics.id', 'users.profpic_id')
        .select(['users.nickname', 'users.is_realname', 'users.wallet_address', 'users.mobile', 'users.is_creator', 'users.account_id', 'profpics.url', 'sessions.last_seen_at'])
        .where('sessions.token_hash', '=', '')
        .where('sessions.revoked_at', 'is', null)
        .where('sessions.expires_at', '>', 0)
        .where('users.frozen_at', 'is', null)
        .compile(),
      // Parameters: the new time, the token hash, the time before which last_seen_at is stale.
      touch: k
        .updateTable('sessions')
        .set({ last_seen_at: 0 })
        .where('token_hash', '=', '')
        .where((e) => e.or([e('last_seen_at', 'is', null), e('last_seen_at', '<', 0)]))
        .compile(),
    };
    compiled.set(ctx.db, q);
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

/** Records activity of a session at most once a minute; never fails the request it rides on. */
async function touchSession(ctx: AppContext, hash: string, lastSeen: number | null, cached?: SessionEntry) {
  const now = ctx.now();
  if (lastSeen !== null && now - Number(lastSeen) < LAST_SEEN_EVERY_MS) return;
  if (cached) cached.lastSeenAt = now;
  await ctx.db.run(queries(ctx).touch, [now, hash, now - LAST_SEEN_EVERY_MS]).catch(() => undefined);
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

/** A live session's row as a lookup returns it; `touched`: the same statement recorded its activity (PostgreSQL). */
export interface SessionRow {
  user_id: number;
  last_seen_at: number | null;
  expires_at: number;
  touched?: boolean | number;
}

/**
 * The SQL of a session lookup by token hash, with `extra` columns and joins of the caller's (the
 * trading gate reads its row in the same statement: kyc/require-trader.ts). Only live sessions of
 * users not frozen (freezing also revokes them; this closes the race with a login in flight).
 * Parameters: the token hash, now, and on PostgreSQL the time before which last_seen_at is stale:
 * there the statement also records the activity when it is due (a CTE UPDATE, `touched` says so) —
 * one round trip for a session this process has not seen yet instead of two. SQLite runs the touch
 * as its own statement.
 */
export function sessionLookupSql(dialect: 'sqlite' | 'postgres', extra: { select: string; join: string } = { select: '', join: '' }): string {
  const pg = dialect === 'postgres';
  const [hash, now] = pg ? ['$1', '$2'] : ['?', '?'];
  // The main query reads the snapshot from before the CTE's UPDATE: last_seen_at as it was.
  return `${pg ? `with t as (update sessions set last_seen_at = $2 where token_hash = $1 and revoked_at is null and expires_at > $2 and (last_seen_at is null or last_seen_at < $3) returning 1) ` : ''}select sessions.user_id, sessions.last_seen_at, sessions.expires_at${extra.select}${pg ? ', exists (select 1 from t) as touched' : ''}
    from sessions inner join users on users.id = sessions.user_id${extra.join}
    where sessions.token_hash = ${hash} and sessions.revoked_at is null and sessions.expires_at > ${now} and users.frozen_at is null`;
}

/** Runs a session lookup's SQL (sessionLookupSql) with its parameters for this database. */
export async function runSessionLookup<R extends SessionRow>(ctx: AppContext, query: CompiledQuery<R>, hash: string, now: number): Promise<R | undefined> {
  const [row] = await ctx.db.run(query, ctx.db.dialect === 'postgres' ? [hash, now, now - LAST_SEEN_EVERY_MS] : [hash, now]);
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
    await touchSession(ctx, hash, hit.lastSeenAt, hit);
    return hit.userId;
  }
  const gen = cache.generation();
  const row = await load(ctx, hash, now);
  if (!row) return undefined;
  const entry: SessionEntry = { userId: Number(row.user_id), lastSeenAt: row.touched ? now : row.last_seen_at === null ? null : Number(row.last_seen_at), expiresAt: Number(row.expires_at) };
  cache.set(hash, entry, gen);
  await touchSession(ctx, hash, entry.lastSeenAt, entry);
  return entry.userId;
}

/** The profile of a token's user in one query (the hot path of every page load). */
export async function findSessionProfile(ctx: AppContext, token: string): Promise<SessionProfileRow | undefined> {
  const hash = sha256(token);
  const [row] = await ctx.db.run(queries(ctx).profile, [hash, ctx.now()]);
  if (row) await touchSession(ctx, hash, row.last_seen_at);
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
      lastSeenAt: Number(r.last_seen_at ?? r.created_at),
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
