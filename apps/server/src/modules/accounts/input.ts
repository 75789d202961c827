import { Status } from '@cfx/contract/envelope.ts';
import { MOBILE_RE, PASSWORD_RE, SMS_CODE_RE } from '@cfx/contract/limits.ts';
import { ApiError } from '../../http/envelope.ts';

/** Checks of user input shared by the account calls; each throws the spec's code and message. */
export function checkMobile(mobile: string): string {
  const m = mobile.trim();
  if (!MOBILE_RE.test(m)) throw new ApiError(Status.INVALID, 'badMobile');
  return m;
}

/** Passwords arrive base64-encoded; the decoded text must be 6-20 digits, letters and symbols. */
export function decodePassword(b64: string | null | undefined): string {
  if (!b64 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) throw new ApiError(Status.INVALID, 'passwordRule');
  const text = Buffer.from(b64, 'base64').toString('utf8');
  if (!PASSWORD_RE.test(text)) throw new ApiError(Status.INVALID, 'passwordRule');
  return text;
}

export function checkSmsCode(code: string | null | undefined): string {
  if (!code || !SMS_CODE_RE.test(code)) throw new ApiError(Status.BAD_SMS_CODE, 'badSmsCode');
  return code;
}
