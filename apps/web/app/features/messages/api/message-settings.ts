import type { MessagePaths } from '@cfx/contract/routes.ts';
import { api, apiData } from '../../../lib/api.ts';
import type { MessageKind, MessageSettings } from './types.ts';

const GET: (typeof MessagePaths)['getmsgsetting'] = '/api/user/message/v1/getmsgsetting';
const SUBMIT: (typeof MessagePaths)['submitmsg'] = '/api/user/message/v1/submitmsg';

/** getmsgsetting: every kind's in-app / SMS switches. */
export function getMessageSettings(): Promise<MessageSettings> {
  return apiData<MessageSettings>(GET, {}, { silent: true });
}

/** submitmsg: saves the given switches; answers every kind. */
export function saveMessageSettings(items: { kind: MessageKind; inApp?: boolean; sms?: boolean }[]) {
  return api<MessageSettings>(SUBMIT, { items });
}
