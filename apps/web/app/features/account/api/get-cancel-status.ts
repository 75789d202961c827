import { SecurityPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { CancelStatus } from './types.ts';

/** The cancellation checklist and the latest request. */
export function getCancelStatus(): Promise<CancelStatus> {
  return apiData<CancelStatus>(SecurityPaths.cancelStatus);
}
