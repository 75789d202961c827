import type { AppContext } from '../../context.ts';
import { hashPassword, needsRehash } from '../../util/crypto.ts';

/**
 * After a successful password check (user login, staff login): a hash of older parameters
 * (util/crypto.ts, e.g. scrypt N=2^14) is replaced by one of the current parameters — only if it is
 * still the stored one, so a password changed meanwhile is never overwritten.
 */
export async function rehashIfOld(ctx: Pick<AppContext, 'db'>, table: 'users' | 'staff', id: number, stored: string, password: string): Promise<void> {
  if (!needsRehash(stored)) return;
  const fresh = await hashPassword(password);
  await ctx.db.kysely.updateTable(table).set({ password_hash: fresh }).where('id', '=', id).where('password_hash', '=', stored).execute();
}
