import { Status } from '@cfx/contract/envelope.ts';
import { SmsType } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { checkMobile } from './input.ts';
import { findUserByMobile } from './repo.ts';
import { issueSmsCode } from './sms-codes.ts';

/**
 * smscode: the slider-captcha token is consumed first, then the phone's state is checked for the
 * type, then the send limits. Only registration tells a registered phone apart (it cannot
 * register twice); login and reset answer alike for every phone.
 */
export async function sendSmsCode(ctx: AppContext, input: { mobile: string; type: string; NECaptchaValidate: string }, ip: string) {
  const mobile = checkMobile(input.mobile);
  const type = input.type;
  if (type !== SmsType.REGISTER && type !== SmsType.LOGIN && type !== SmsType.FORGOT) throw new ApiError(Status.INVALID, 'badParams');
  if (!(await ctx.captcha.verify(input.NECaptchaValidate))) throw new ApiError(Status.BAD_CAPTCHA, 'badCaptcha');
  const user = await findUserByMobile(ctx, mobile);
  if (type === SmsType.REGISTER && user) throw new ApiError(Status.ALREADY_REGISTERED, 'alreadyRegistered');
  // Login and reset codes answer the same for an unregistered phone (no enumeration): the
  // request counts against the limits like any other, but no SMS is sent.
  await issueSmsCode(ctx, mobile, type, ip, { deliver: type === SmsType.REGISTER || Boolean(user) });
}

/** v1/mobile/smscode: a code to the logged-in user's own phone (type '4', security actions). */
export async function sendOwnSmsCode(ctx: AppContext, userId: number, input: { NECaptchaValidate: string }, ip: string) {
  if (!(await ctx.captcha.verify(input.NECaptchaValidate))) throw new ApiError(Status.BAD_CAPTCHA, 'badCaptcha');
  const user = await ctx.db.kysely.selectFrom('users').select('mobile').where('id', '=', userId).executeTakeFirstOrThrow();
  await issueSmsCode(ctx, user.mobile, SmsType.SECURITY, ip);
}
