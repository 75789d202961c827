import { UserPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import { base64Utf8 } from '../../../lib/base64.ts';

export function register(v: { mobile: string; password: string; smsCode: string; inviteCode?: string; registChannel?: string }) {
  return api<{ token: string }>(UserPaths.register, {
    mobile: v.mobile,
    pwd: base64Utf8(v.password),
    smsCode: v.smsCode,
    ...(v.inviteCode ? { inviteCode: v.inviteCode } : {}),
    ...(v.registChannel ? { registChannel: v.registChannel } : {}),
  });
}
