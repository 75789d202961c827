import { SecurityPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { SessionItem } from './types.ts';

/** My signed-in devices, the current one flagged. */
export function listSessions(): Promise<SessionItem[]> {
  return apiData<SessionItem[]>(SecurityPaths.sessions);
}
