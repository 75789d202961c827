import type { CompiledQuery } from 'kysely';
import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';

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
export async function requireTrader(ctx: AppContext, userId: number): Promise<{ walletAddress: string; idDigest: string; accountId: string; nickname: string }> {
  const [row] = await ctx.db.run(gateQuery(ctx), [userId]);
  if (row && row.frozen_at !== null) throw new ApiError(Status.ACCOUNT_FROZEN, 'accountFrozen');
  if (!row || !row.is_realname || row.realnameUser === null) throw new ApiError(Status.TRADE_NOT_ALLOWED, 'tradeNeedRealname');
  // The adult flag is set at verification (which refuses minors); the birth date itself stays sealed.
  if (!Number(row.adult)) throw new ApiError(Status.TRADE_NOT_ALLOWED, 'tradeUnderage');
  if (!row.wallet_address) throw new ApiError(Status.TRADE_NOT_ALLOWED, 'tradeNeedWallet');
  return { walletAddress: row.wallet_address, idDigest: row.id_digest!, accountId: row.account_id, nickname: row.nickname };
}
