import { UserPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { InviteInfo } from './types.ts';

export function getInviteCode(): Promise<InviteInfo> {
  return apiData<InviteInfo>(UserPaths.getinvitecode);
}
