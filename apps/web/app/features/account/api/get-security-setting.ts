import { UserPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { SecuritySetting } from './types.ts';

export function getSecuritySetting(): Promise<SecuritySetting> {
  return apiData<SecuritySetting>(UserPaths.securitySetting);
}
