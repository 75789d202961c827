import type { MessagePaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { UnreadCounts } from './types.ts';

const PATH: (typeof MessagePaths)['unread'] = '/api/user/message/v1/unread';

/** My unread counts, total and per kind. */
export function getUnread(): Promise<UnreadCounts> {
  return apiData<UnreadCounts>(PATH, {}, { silent: true });
}
