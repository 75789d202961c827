import { SecurityPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { PrivacySetting } from './types.ts';

/** privacy/other/setsetting: either switch; answers the stored state. */
export function setPrivacySetting(change: Partial<PrivacySetting>) {
  return api<PrivacySetting>(SecurityPaths.privacySet, change);
}
