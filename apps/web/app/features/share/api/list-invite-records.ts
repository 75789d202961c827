import { InvitePaths } from '@cfx/contract/routes.ts';
import type { InviteRecordsPage } from '@cfx/contract/invites.ts';
import { apiData } from '../../../lib/api.ts';

export type { InviteRecordsPage };

export function listInviteRecords(pageNum: number, pageSize: number): Promise<InviteRecordsPage> {
  return apiData<InviteRecordsPage>(InvitePaths.records, { pageNum, pageSize });
}
