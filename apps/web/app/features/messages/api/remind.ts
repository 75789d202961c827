import type { MessagePaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { RemindData } from './types.ts';

const REMIND: (typeof MessagePaths)['remind'] = '/api/user/message/v1/remind';
const STATUS: (typeof MessagePaths)['remindStatus'] = '/api/user/message/v1/remind/status';

/** Subscribes to (on) or cancels (off) the reminder before a release's sale start. */
export function setRemind(projectId: number, on: boolean) {
  return api<RemindData>(REMIND, { projectId, on });
}

/** My reminder of a release. */
export function getRemind(projectId: number) {
  return api<RemindData>(STATUS, { projectId }, { silent: true });
}
