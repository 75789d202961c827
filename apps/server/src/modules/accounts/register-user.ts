import { Status } from '@cfx/contract/envelope.ts';
import { LIMITS } from '@cfx/contract/limits.ts';
import { SmsType } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { hashPassword, randomDigits, randomInviteCode } from '../../util/crypto.ts';
import { checkMobile, checkSmsCode, decodePassword } from './input.ts';
import { findUserByMobile } from './repo.ts';
import type { ClientMeta } from './client-info.ts';
import { createSession } from './sessions.ts';
import { consumeSmsCode } from './sms-codes.ts';

const DEFAULT_PROFPIC = '1';

function isUniqueViolation(err: unknown, column: string): boolean {
  const e = err as { code?: string; message?: string; constraint?: string; detail?: string };
  const text = `${e.message ?? ''} ${e.constraint ?? ''} ${e.detail ?? ''}`;
  return (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === '23505') && text.includes(column);
}

export async function registerUser(
  ctx: AppContext,
  input: { mobile: string; pwd: string; smsCode: string; inviteCode?: string | null; registChannel?: string | null },
  meta?: ClientMeta,
) {
  const mobile = checkMobile(input.mobile);
  const password = decodePassword(input.pwd);
  const code = checkSmsCode(input.smsCode);
  let invitedBy: number | null = null;
  const inviteCode = input.inviteCode?.trim().toUpperCase();
  if (inviteCode) {
    if (inviteCode.length > LIMITS.inviteCodeMax) throw new ApiError(Status.INVALID, 'badInviteCode');
    const inviter = await ctx.db.kysely.selectFrom('users').select('id').where('invite_code', '=', inviteCode).executeTakeFirst();
    if (!inviter) throw new ApiError(Status.INVALID, 'badInviteCode');
    invitedBy = Number(inviter.id);
  }
  if (await findUserByMobile(ctx, mobile)) throw new ApiError(Status.ALREADY_REGISTERED, 'alreadyRegistered');
  await consumeSmsCode(ctx, mobile, SmsType.REGISTER, code);
  const passwordHash = await hashPassword(password);

  for (let attempt = 0; ; attempt++) {
    try {
      const row = await ctx.db.kysely
        .insertInto('users')
        .values({
          account_id: `1${randomDigits(9)}`,
          mobile,
          password_hash: passwordHash,
          nickname: `藏友${mobile.slice(-4)}`,
          profpic_id: DEFAULT_PROFPIC,
          is_realname: 0,
          is_creator: 0,
          wallet_address: null,
          invite_code: randomInviteCode(6),
          invited_by: invitedBy,
          regist_channel: input.registChannel ? input.registChannel.slice(0, 64) : null,
          created_at: ctx.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { token: await createSession(ctx, Number(row.id), meta) };
    } catch (err) {
      if (isUniqueViolation(err, 'mobile')) throw new ApiError(Status.ALREADY_REGISTERED, 'alreadyRegistered');
      // account_id / invite_code collisions are rare: draw again.
      if (attempt < 5 && (isUniqueViolation(err, 'account_id') || isUniqueViolation(err, 'invite_code'))) continue;
      throw err;
    }
  }
}
