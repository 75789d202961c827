import type { MessagePaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { MessageKind, MessagePage } from './types.ts';

const PATH: (typeof MessagePaths)['msglist'] = '/api/user/message/v1/msglist';

/** msglist: my messages, newest first; `kind` one kind, `unread` unread only. Reading marks nothing read. */
export function listMessages(q: { pageNum: number; pageSize: number; kind?: MessageKind; unread?: boolean }): Promise<MessagePage> {
  return apiData<MessagePage>(PATH, q, { silent: true });
}
