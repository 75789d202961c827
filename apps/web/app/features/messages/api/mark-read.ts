import type { MessagePaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { MessageKind } from './types.ts';

const PATH: (typeof MessagePaths)['read'] = '/api/user/message/v1/read';

/** Marks some of my messages read, or all of them (of one kind); answers the new unread count. */
export function markRead(target: { ids: number[] } | { all: true; kind?: MessageKind }) {
  return api<{ updated: number; unread: number }>(PATH, target);
}
