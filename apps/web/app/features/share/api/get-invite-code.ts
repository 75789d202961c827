import { UserPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

/** My invite code for share links, or '' when it cannot be read (the share still works without it). */
export async function myInviteCode(): Promise<string> {
  const r = await api<{ inviteCode: string }>(UserPaths.getinvitecode, {}, { silent: true });
  return r.ok ? r.data.inviteCode : '';
}
