import { SecurityPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { SecurityEvent } from './types.ts';

/** My latest security log entries. */
export function listSecurityEvents(): Promise<SecurityEvent[]> {
  return apiData<SecurityEvent[]>(SecurityPaths.events);
}
