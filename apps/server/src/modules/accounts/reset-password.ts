import { Status } from '@cfx/contract/envelope.ts';
import { SmsType } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { hashPassword, randomToken, sha256 } from '../../util/crypto.ts';
import { checkMobile, checkSmsCode, decodePassword } from './input.ts';
import { findUserByMobile } from './repo.ts';
import { revokeAllSessions } from './sessions.ts';
import { consumeSmsCode } from './sms-codes.ts';

/** Forgot-password step 1: the SMS code proves the phone; answers a short-lived reset token. */
export async function checkResetMobile(ctx: AppContext, input: { mobile: string; smscode: string }) {
  const mobile = checkMobile(input.mobile);
  // The code first: an unregistered phone answers exactly like a wrong code (no enumeration).
  await consumeSmsCode(ctx, mobile, SmsType.FORGOT, checkSmsCode(input.smscode));
  if (!(await findUserByMobile(ctx, mobile))) throw new ApiError(Status.BAD_SMS_CODE, 'badSmsCode');
  const token = randomToken(24);
  const now = ctx.now();
  await ctx.db.kysely
    .insertInto('reset_tokens')
    .values({ token_hash: sha256(token), mobile, created_at: now, expires_at: now + ctx.config.limits.resetTokenTtlMs, used_at: null })
    .execute();
  return { token };
}

/**
 * Step 2: codes 1001 password rule, 1002 not registered, 1100 token failed. The token is
 * checked before the phone, so without a valid token every phone answers 1100 (no enumeration);
 * 1002 is left for a token whose account disappeared meanwhile.
 */
export async function resetPassword(ctx: AppContext, input: { mobile: string; token: string; newPwd: string }) {
  const password = decodePassword(input.newPwd);
  const mobile = checkMobile(input.mobile);
  const now = ctx.now();
  const live = await ctx.db.kysely
    .selectFrom('reset_tokens')
    .select('token_hash')
    .where('token_hash', '=', sha256(input.token))
    .where('mobile', '=', mobile)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!live) throw new ApiError(Status.SESSION_LOST, 'tokenFailed');
  const user = await findUserByMobile(ctx, mobile);
  if (!user) throw new ApiError(Status.NOT_REGISTERED, 'notRegistered');
  const passwordHash = await hashPassword(password);
  await ctx.db.kysely.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable('reset_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', sha256(input.token))
      .where('mobile', '=', mobile)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw new ApiError(Status.SESSION_LOST, 'tokenFailed');
    await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
  });
  await revokeAllSessions(ctx, Number(user.id));
}
