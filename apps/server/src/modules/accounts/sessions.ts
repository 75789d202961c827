import type { CompiledQuery } from 'kysely';
import type { AppContext } from '../../context.ts';
import { randomToken, sha256 } from '../../util/crypto.ts';

/** Session tokens are random, stored only as a SHA-256 hash, expire, and are revoked by logout. */
export async function createSession(ctx: AppContext, userId: number): Promise<string> {
  const token = randomToken(32);
  const now = ctx.now();
  await ctx.db.kysely
    .insertInto('sessions')
    .values({ token_hash: sha256(token), user_id: userId, created_at: now, expires_at: now + ctx.config.sessionTtlMs, revoked_at: null })
    .execute();
  return token;
}

/** Compiled once per database (placeholders only); run with fresh parameters on every request. */
const compiled = new WeakMap<object, { session: CompiledQuery<{ user_id: number }>; profile: CompiledQuery<SessionProfileRow> }>();
function queries(ctx: AppContext) {
  let q = compiled.get(ctx.db);
  if (!q) {
    const k = ctx.db.kysely;
    q = {
      session: k.selectFrom('sessions').select('user_id').where('token_hash', '=', '').where('revoked_at', 'is', null).where('expires_at', '>', 0).compile(),
      profile: k
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .innerJoin('profpics', 'profpics.id', 'users.profpic_id')
        .select(['users.nickname', 'users.is_realname', 'users.wallet_address', 'users.mobile', 'users.is_creator', 'users.account_id', 'profpics.url'])
        .where('sessions.token_hash', '=', '')
        .where('sessions.revoked_at', 'is', null)
        .where('sessions.expires_at', '>', 0)
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
}

export async function findSessionUser(ctx: AppContext, token: string): Promise<number | undefined> {
  const [row] = await ctx.db.run(queries(ctx).session, [sha256(token), ctx.now()]);
  return row ? Number(row.user_id) : undefined;
}

/** The profile of a token's user in one query (the hot path of every page load). */
export async function findSessionProfile(ctx: AppContext, token: string): Promise<SessionProfileRow | undefined> {
  const [row] = await ctx.db.run(queries(ctx).profile, [sha256(token), ctx.now()]);
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
