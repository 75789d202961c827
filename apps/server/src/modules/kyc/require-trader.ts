import { CompiledQuery, sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { ChangeCache } from '../../db/change-feed.ts';
import { findSessionUser, primeSessions, runSessionLookup, sessionGeneration, sessionLookupSql, tokenOf, type SessionRow } from '../accounts/index.ts';

interface GateRow {
  is_realname: number;
  wallet_address: string | null;
  frozen_at: number | null;
  account_id: string;
  nickname: string;
  adult: number | null;
  realnameUser: number | null;
  id_digest: string | null;
}

/** The gate's one read, compiled once per database (every buying, selling and bidding call runs it). */
const compiled = new WeakMap<object, CompiledQuery<GateRow>>();
function gateQuery(ctx: AppContext): CompiledQuery<GateRow> {
  let q = compiled.get(ctx.db);
  if (!q) {
    q = ctx.db.kysely
      .selectFrom('users')
      .leftJoin('realname', 'realname.user_id', 'users.id')
      .select(['users.is_realname', 'users.wallet_address', 'users.frozen_at', 'users.account_id', 'users.nickname', 'realname.adult', 'realname.user_id as realnameUser', 'realname.id_digest'])
      .where('users.id', '=', 0)
      .compile() as CompiledQuery<GateRow>;
    compiled.set(ctx.db, q);
  }
  return q;
}

/**
 * The trading gate: not frozen by staff (1034), real-name verified, 18 or older
 * today, wallet linked. Returns the user's wallet address, the keyed digest of their ID number (the
 * real-name identity) and their account id and nickname. Every buying, selling and bidding call
 * goes through it.
 */
/**
 * The gate's row by user, per process: forgotten on a change to the user's gate columns or to
 * `realname` in this or another process (db/change-feed.ts), at most 60 s old. A user not found is
 * not kept (a new user's row is then no change to watch).
 */
const GATE_WATCH = [
  { table: 'users', columns: ['is_realname', 'wallet_address', 'frozen_at', 'account_id', 'nickname'], inserts: false },
  { table: 'realname' },
] as const;
const gateCaches = new WeakMap<object, ChangeCache<number, GateRow>>();
function gateCache(ctx: AppContext): ChangeCache<number, GateRow> {
  let c = gateCaches.get(ctx.db);
  if (!c) gateCaches.set(ctx.db, (c = new ChangeCache(ctx.db.changes, GATE_WATCH, { ttlMs: 60_000, max: 200_000, now: () => ctx.monotonicNow() })));
  return c;
}

async function gateRow(ctx: AppContext, userId: number): Promise<GateRow | null> {
  const cache = gateCache(ctx);
  const hit = cache.get(userId);
  if (hit !== undefined) return hit;
  const gen = cache.generation();
  const [row] = await ctx.db.run(gateQuery(ctx), [userId]);
  if (row) cache.set(userId, row, gen);
  return row ?? null;
}

export async function requireTrader(ctx: AppContext, userId: number): Promise<{ walletAddress: string; idDigest: string; accountId: string; nickname: string }> {
  const row = await gateRow(ctx, userId);
  if (row && row.frozen_at !== null) throw new ApiError(Status.ACCOUNT_FROZEN, 'accountFrozen');
  if (!row || !row.is_realname || row.realnameUser === null) throw new ApiError(Status.TRADE_NOT_ALLOWED, 'tradeNeedRealname');
  // The adult flag is set at verification (which refuses minors); the birth date itself stays sealed.
  if (!Number(row.adult)) throw new ApiError(Status.TRADE_NOT_ALLOWED, 'tradeUnderage');
  if (!row.wallet_address) throw new ApiError(Status.TRADE_NOT_ALLOWED, 'tradeNeedWallet');
  return { walletAddress: row.wallet_address, idDigest: row.id_digest!, accountId: row.account_id, nickname: row.nickname };
}

/**
 * The user of a trading call's session (1100 without a live one), with the trading gate's row read in
 * the same statement when this process has not seen the session yet: a buyer's first createOrder in
 * a process is then one lookup — on PostgreSQL one round trip with the session's activity recorded —
 * instead of a session read, a touch and a gate read. requireTrader then answers from the gate cache.
 */
export async function requireTraderUserId(ctx: AppContext, req: FastifyRequest): Promise<number> {
  const token = tokenOf(req);
  if (!token) throw new ApiError(Status.SESSION_LOST, 'sessionLost');
  const userId = await findSessionUser(ctx, token, loadTraderSession);
  if (userId === undefined) throw new ApiError(Status.SESSION_LOST, 'sessionLost');
  return userId;
}

type TraderSessionRow = SessionRow & GateRow;
/** The trading gate's columns, as the lookups below select them. */
const GATE_SELECT = `, users.is_realname, users.wallet_address, users.frozen_at, users.account_id, users.nickname, realname.adult, realname.user_id as "realnameUser", realname.id_digest`;
const gateOf = ({ is_realname, wallet_address, frozen_at, account_id, nickname, adult, realnameUser, id_digest }: GateRow): GateRow => ({ is_realname, wallet_address, frozen_at, account_id, nickname, adult, realnameUser, id_digest });
const traderLookups = new WeakMap<object, CompiledQuery<TraderSessionRow>>();
async function loadTraderSession(ctx: AppContext, hash: string, now: number): Promise<SessionRow | undefined> {
  let q = traderLookups.get(ctx.db);
  if (!q) {
    const text = sessionLookupSql(ctx.db.dialect, { select: GATE_SELECT, join: ' left join realname on realname.user_id = users.id' });
    traderLookups.set(ctx.db, (q = CompiledQuery.raw(text) as CompiledQuery<TraderSessionRow>));
  }
  const cache = gateCache(ctx);
  const gen = cache.generation();
  const row = await runSessionLookup(ctx, q, hash, now);
  if (row) cache.set(Number(row.user_id), gateOf(row), gen);
  return row;
}

/**
 * Loads into this process's caches the live sessions last seen since `seenSince` (the most recent
 * `max`), with their users' trading gates: what a buyer's first trading call in this process would
 * look up (loadTraderSession), read in one statement ahead of a drop's sale (drops/warm-up.ts), so the
 * flood's first calls are answered from memory. Both caches stay exact: rows read before a change
 * of sessions, users or real names are not kept (the caches' generations). Returns the sessions read.
 */
export async function warmTraders(ctx: AppContext, opts: { seenSince: number; max: number }): Promise<number> {
  const gates = gateCache(ctx);
  const genGate = gates.generation();
  const genSession = sessionGeneration(ctx);
  // Through Kysely (not Db.run): on SQLite it waits for a transaction on the one connection, so no uncommitted row is kept.
  const { rows } = await sql<TraderSessionRow & { token_hash: string }>`select sessions.token_hash, sessions.user_id, sessions.last_seen_at, sessions.expires_at${sql.raw(GATE_SELECT)}
    from sessions inner join users on users.id = sessions.user_id left join realname on realname.user_id = users.id
    where sessions.revoked_at is null and sessions.expires_at > ${ctx.now()} and users.frozen_at is null and sessions.last_seen_at >= ${opts.seenSince}
    order by sessions.last_seen_at desc limit ${opts.max}`.execute(ctx.db.kysely);
  for (const r of rows) gates.set(Number(r.user_id), gateOf(r), genGate);
  primeSessions(ctx, rows.map((r) => ({ hash: r.token_hash, row: r })), genSession);
  return rows.length;
}
