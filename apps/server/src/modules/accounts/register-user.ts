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
import { inTx, lockKey } from '../../db/tx.ts';

const DEFAULT_PROFPIC = '1';

function isUniqueViolation(err: unknown, column: string): boolean {
  const e = err as { code?: string; message?: string; constraint?: string; detail?: string };
  const text = `${e.message ?? ''} ${e.constraint ?? ''} ${e.detail ?? ''}`;
  return (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === '23505') && text.includes(column);
}

/**
 * Reserves one registration try for this phone and IP before the SMS code is compared (like
 * reserveLoginTry): wrong codes within the login window are counted per phone (a keyed digest) and
 * per IP under locks, and past REGISTER_FAILURES_PER_MOBILE / _PER_IP the answer is 1006 — before
 * anything about the phone is read, so it is the same for every phone. Returns the reserved row's id.
 */
async function reserveRegisterTry(ctx: AppContext, mobile: string, ip: string): Promise<number> {
  const { loginWindowMs, registerFailuresPerMobile, registerFailuresPerIp } = ctx.config.limits;
  const now = ctx.now();
  const since = now - loginWindowMs;
  const digest = ctx.secrets.digest(`register:${mobile}`);
  return inTx(ctx, async (trx) => {
    await lockKey(ctx, trx, `register:m:${digest}`);
    await lockKey(ctx, trx, `register:ip:${ip}`);
    const count = async (col: 'mobile_digest' | 'ip', v: string) =>
      Number((await trx.selectFrom('register_failures').select((e) => e.fn.countAll<number>().as('n')).where(col, '=', v).where('created_at', '>', since).executeTakeFirstOrThrow()).n);
    if ((await count('mobile_digest', digest)) >= registerFailuresPerMobile || (await count('ip', ip)) >= registerFailuresPerIp) {
      throw new ApiError(Status.RATE_LIMITED, 'registerLocked', { m: Math.ceil(loginWindowMs / 60_000) });
    }
    const row = await trx.insertInto('register_failures').values({ mobile_digest: digest, ip, created_at: now }).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  });
}

/**
 * regist. No answer tells a registered phone from an unregistered one to someone without its code:
 * the try is reserved (per phone and IP), then the SMS code is checked — a wrong one answers 1004
 * for every phone by the same path, without looking the phone up — and only a right code (the
 * caller holds the phone) gives the try back and may hear 1003 "already registered". No register
 * code is ever sent to a registered phone (smscode refuses, behind the captcha).
 */
export async function registerUser(
  ctx: AppContext,
  input: { mobile: string; pwd: string; smsCode: string; inviteCode?: string | null; registChannel?: string | null },
  meta: ClientMeta,
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
  const tryId = await reserveRegisterTry(ctx, mobile, meta.ip);
  await consumeSmsCode(ctx, mobile, SmsType.REGISTER, code);
  await ctx.db.kysely.deleteFrom('register_failures').where('id', '=', tryId).execute();
  if (await findUserByMobile(ctx, mobile)) throw new ApiError(Status.ALREADY_REGISTERED, 'alreadyRegistered');
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
