import crypto from 'node:crypto';
import { Status } from '@cfx/contract/envelope.ts';
import { isMainnetAddress, sameAddress, toBase32Address } from '@cfx/protocol/address.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { sha256 } from '../../util/crypto.ts';
import { recoverPersonalSigner } from './personal-sign.ts';

const CHALLENGE_TTL_MS = 5 * 60_000;

/** Canonical short base32 form (lower case, no type prefix) of a mainnet address, or a 1001 failure. */
export function mainnetAddress(raw: string): string {
  const a = raw.trim();
  if (!isMainnetAddress(a)) throw new ApiError(Status.INVALID, 'walletBadAddress');
  return toBase32Address(a);
}

/** walletchallenge: a one-time text the wallet signs with personal_sign to prove it owns the address. */
export async function issueWalletChallenge(ctx: AppContext, userId: number, rawAddress: string) {
  const address = mainnetAddress(rawAddress);
  const now = ctx.now();
  const nonce = crypto.randomBytes(16).toString('hex');
  const message = [
    '数字藏品市场 · 绑定钱包 / Link wallet',
    `地址 Address: ${address}`,
    `账户 Account: ${userId}`,
    `随机数 Nonce: ${nonce}`,
    `时间 Issued: ${new Date(now).toISOString()}`,
  ].join('\n');
  await ctx.db.kysely
    .insertInto('wallet_challenges')
    .values({ nonce, user_id: userId, address, message, created_at: now, expires_at: now + CHALLENGE_TTL_MS, used_at: null })
    .execute();
  return { message, expiresAt: now + CHALLENGE_TTL_MS };
}

/**
 * walletlogin {walletAddress, code}: `code` is the personal_sign signature of this user's latest
 * live challenge for the address. One wallet per user, one user per wallet; on success the wallet
 * is bound and this session is marked wallet-connected. Nothing is bound on any failure.
 */
export async function linkWallet(ctx: AppContext, userId: number, token: string, input: { walletAddress: string; code: string }) {
  const address = mainnetAddress(input.walletAddress);
  const now = ctx.now();
  const challenge = await ctx.db.kysely
    .selectFrom('wallet_challenges')
    .selectAll()
    .where('user_id', '=', userId)
    .where('address', '=', address)
    .where('used_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!challenge || Number(challenge.expires_at) <= now) throw new ApiError(Status.BAD_SIGNATURE, 'walletChallengeExpired');
  const signer = recoverPersonalSigner(challenge.message, input.code.trim());
  if (!signer || !sameAddress(signer, address)) throw new ApiError(Status.BAD_SIGNATURE, 'walletBadSignature');

  await ctx.db.kysely.transaction().execute(async (trx) => {
    const used = await trx.updateTable('wallet_challenges').set({ used_at: now }).where('nonce', '=', challenge.nonce).where('used_at', 'is', null).executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw new ApiError(Status.BAD_SIGNATURE, 'walletChallengeExpired');
    const owner = await trx.selectFrom('users').select('id').where('wallet_address', '=', address).executeTakeFirst();
    if (owner && Number(owner.id) !== userId) throw new ApiError(Status.WALLET_CONFLICT, 'walletTaken');
    const me = await trx.selectFrom('users').select('wallet_address').where('id', '=', userId).executeTakeFirstOrThrow();
    if (me.wallet_address && me.wallet_address !== address) throw new ApiError(Status.WALLET_CONFLICT, 'walletOtherLinked');
    try {
      await trx.updateTable('users').set({ wallet_address: address }).where('id', '=', userId).execute();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505') throw new ApiError(Status.WALLET_CONFLICT, 'walletTaken');
      throw err;
    }
    await trx.updateTable('sessions').set({ wallet_connected: 1 }).where('token_hash', '=', sha256(token)).execute();
  });
  return { walletAddress: address };
}

export async function walletStatus(ctx: AppContext, userId: number, token: string) {
  const row = await ctx.db.kysely
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['users.wallet_address', 'sessions.wallet_connected'])
    .where('sessions.token_hash', '=', sha256(token))
    .where('users.id', '=', userId)
    .executeTakeFirstOrThrow();
  return { walletAddress: row.wallet_address ?? '', isLoginWallet: Boolean(row.wallet_address) && row.wallet_connected === 1 };
}

/** Wallet logout disconnects the wallet from this session; the binding itself stays. */
export async function walletLogout(ctx: AppContext, token: string) {
  await ctx.db.kysely.updateTable('sessions').set({ wallet_connected: 0 }).where('token_hash', '=', sha256(token)).execute();
}
