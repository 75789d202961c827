import { Status } from '@cfx/contract/envelope.ts';
import { LIMITS } from '@cfx/contract/limits.ts';
import type { UserProfile } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { maskMobile } from '../../util/crypto.ts';
import { findProfpic, findUserById } from './repo.ts';
import { findSessionProfile } from './sessions.ts';

async function userOrLost(ctx: AppContext, userId: number) {
  const user = await findUserById(ctx, userId);
  if (!user) throw new ApiError(Status.SESSION_LOST, 'sessionLost');
  return user;
}

export async function getProfile(ctx: AppContext, token: string | undefined): Promise<UserProfile> {
  const row = token ? await findSessionProfile(ctx, token) : undefined;
  if (!row) throw new ApiError(Status.SESSION_LOST, 'sessionLost');
  return {
    profpicUrl: row.url,
    nickname: row.nickname,
    isRealname: row.is_realname ? '1' : '0',
    walletAddress: row.wallet_address ?? '',
    mobile: row.mobile,
    isCreator: row.is_creator ? 1 : 0,
    accountId: row.account_id,
  };
}

export async function listProfpics(ctx: AppContext) {
  return ctx.db.kysely.selectFrom('profpics').select(['id', 'url']).orderBy('sort').execute();
}

export async function changeProfpic(ctx: AppContext, userId: number, id: string) {
  if (!(await findProfpic(ctx, id))) throw new ApiError(Status.INVALID, 'badProfpic');
  await ctx.db.kysely.updateTable('users').set({ profpic_id: id }).where('id', '=', userId).execute();
}

/** Nicknames: 1-16 characters after trimming, no control characters. */
export async function modifyNickname(ctx: AppContext, userId: number, raw: string) {
  const nickname = raw.trim();
  if (!nickname || [...nickname].length > LIMITS.nicknameMax || /[\u0000-\u001f\u007f<>]/.test(nickname)) {
    throw new ApiError(Status.INVALID, 'badNickname');
  }
  await ctx.db.kysely.updateTable('users').set({ nickname }).where('id', '=', userId).execute();
}

export async function getInviteInfo(ctx: AppContext, userId: number) {
  const user = await userOrLost(ctx, userId);
  const count = await ctx.db.kysely.selectFrom('users').select((e) => e.fn.countAll<number>().as('n')).where('invited_by', '=', userId).executeTakeFirstOrThrow();
  return { inviteCode: user.invite_code, invitedCount: Number(count.n) };
}

export async function getSecuritySetting(ctx: AppContext, userId: number) {
  const user = await userOrLost(ctx, userId);
  return {
    mobile: maskMobile(user.mobile),
    hasPassword: Boolean(user.password_hash),
    isRealname: (user.is_realname ? '1' : '0') as '0' | '1',
    walletAddress: user.wallet_address ?? '',
  };
}
