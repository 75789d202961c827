/** Types of the message-center calls (from the shared contract, types only: no zod in the bundle). */
export type { MessageItem, MessageKind, MessageSetting, RemindData } from '@cfx/contract/user-messages.ts';
import type { MessageItem, MessageKind, MessageSetting } from '@cfx/contract/user-messages.ts';
import type { Page } from '@cfx/contract/paging.ts';

/** Same order as the contract's MESSAGE_KINDS (a value here: importing the contract's would pull zod in). */
export const MESSAGE_KINDS: readonly MessageKind[] = ['sold', 'bid_received', 'bid_accepted', 'order_expiring', 'order_expired', 'order_refunded', 'drop_starting', 'lottery_result', 'service_reply', 'application_approved', 'release_review'];

export type MessagePage = Page<MessageItem> & { unread: number };
export interface UnreadCounts {
  count: number;
  byKind: Record<MessageKind, number>;
}
export interface MessageSettings {
  items: MessageSetting[];
  smsAvailable: boolean;
}
