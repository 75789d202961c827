import type { Db } from '../../db/database.ts';
import { randomToken, sha256 } from '../../util/crypto.ts';

/**
 * The one-time tokens our own slider (and the test provider) issue: stored hashed,
 * valid for `ttlMs`, consumed by a conditional update so a token works exactly once.
 */
export async function issueCaptchaToken(db: Db, now: number, ttlMs: number): Promise<string> {
  const token = `cc_${randomToken(24)}`;
  await db.kysely
    .insertInto('captcha_tokens')
    .values({ token_hash: sha256(token), created_at: now, expires_at: now + ttlMs, used_at: null })
    .execute();
  return token;
}

export async function consumeCaptchaToken(db: Db, token: string, now: number): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const res = await db.kysely
    .updateTable('captcha_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', sha256(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
