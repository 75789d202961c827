import { UserPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import { base64Utf8 } from '../../../lib/base64.ts';

export function loginWithPassword(mobile: string, password: string) {
  return api<{ token: string }>(UserPaths.login, { mobile, pwd: base64Utf8(password), loginType: 1 });
}

export function loginWithSms(mobile: string, smsCode: string) {
  return api<{ token: string }>(UserPaths.login, { mobile, loginType: 2, smsCode });
}
