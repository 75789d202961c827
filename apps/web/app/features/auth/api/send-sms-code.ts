import { UserPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

/** type '1' register, '2' SMS login, '3' forgot password; needs a fresh slider-captcha token. */
export type SmsType = '1' | '2' | '3';

export function sendSmsCode(mobile: string, type: SmsType, NECaptchaValidate: string) {
  return api<null>(UserPaths.smscode, { mobile, type, NECaptchaValidate });
}
