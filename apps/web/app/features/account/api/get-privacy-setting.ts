import { UserPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { PrivacySetting } from './types.ts';

export function getPrivacySetting(): Promise<PrivacySetting> {
  return apiData<PrivacySetting>(UserPaths.privacySetting);
}
