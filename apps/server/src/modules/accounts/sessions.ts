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

export async function findSessionUser(ctx: AppContext, token: string): Promise<number | undefined> {
  const row = await ctx.db.kysely
    .selectFrom('sessions')
    .select('user_id')
    .where('token_hash', '=', sha256(token))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', ctx.now())
    .executeTakeFirst();
  return row ? Number(row.user_id) : undefined;
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
