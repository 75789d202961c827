import { UserPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { RealnameInfo } from './types.ts';

/** POST /api/user/profile/v1/getrealnameinfo — the masked name and ID number, or isRealname '0'. Skips the default error message. */
export async function getRealnameInfo(): Promise<RealnameInfo> {
  const data = await apiData<RealnameInfo | null>(UserPaths.getrealnameinfo);
  return data ?? { isRealname: '0', name: '', idNumber: '', verifiedAt: null };
}
