import type { MessagePaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

const TICKET: (typeof MessagePaths)['streamTicket'] = '/api/user/message/v1/stream/ticket';
export const STREAM_PATH: (typeof MessagePaths)['stream'] = '/api/user/message/v1/stream';

/** A single-use ticket (30 s) for the message stream: EventSource cannot send the token header. */
export function getStreamTicket() {
  return api<{ ticket: string; expiresInMs: number }>(TICKET, {}, { silent: true });
}
