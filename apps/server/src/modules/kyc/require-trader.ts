import { Status } from '@cfx/contract/envelope.ts';
import { LIMITS } from '@cfx/contract/limits.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { ageAt } from './id-number.ts';

/**
 * The trading gate (spec §1, §5): real-name verified, 18 or older today, wallet linked.
 * Returns the user's wallet address. Every buying, selling and bidding call goes through it.
 */
export async function requireTrader(ctx: AppContext, userId: number): Promise<{ walletAddress: string }> {
  const row = await ctx.db.kysely
    .selectFrom('users')
    .leftJoin('realname', 'realname.user_id', 'users.id')
    .select(['users.is_realname', 'users.wallet_address', 'realname.birth_date'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (!row || !row.is_realname || !row.birth_date) throw new ApiError(Status.TRADE_NOT_ALLOWED, 'tradeNeedRealname');
  const [y, m, d] = row.birth_date.split('-').map(Number) as [number, number, number];
  if (ageAt({ y, m, d }, ctx.now()) < LIMITS.minimumAge) throw new ApiError(Status.TRADE_NOT_ALLOWED, 'tradeUnderage');
  if (!row.wallet_address) throw new ApiError(Status.TRADE_NOT_ALLOWED, 'tradeNeedWallet');
  return { walletAddress: row.wallet_address };
}
