import { SettledPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { SettledMine } from './types.ts';

/** GET /official/settled/mine — my applications (newest first) and the upload limits. Silent: the page shows its own error state. */
export function listMyApplications(): Promise<SettledMine> {
  return apiData<SettledMine>(SettledPaths.mine, undefined, { method: 'GET', silent: true });
}
