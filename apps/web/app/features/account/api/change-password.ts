import { SecurityPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import { base64Utf8 } from '../../../lib/base64.ts';

/** security/changepwd: the old password when the account has one, else a security code (type 4); passwords go base64. */
export function changePassword(v: { oldPassword?: string; password: string; smsCode?: string }) {
  return api<null>(SecurityPaths.changePassword, {
    ...(v.oldPassword ? { oldPwd: base64Utf8(v.oldPassword) } : {}),
    newPwd: base64Utf8(v.password),
    ...(v.smsCode ? { smsCode: v.smsCode } : {}),
  });
}
