import type { Generated } from 'kysely';
import type { MessageKind } from '@cfx/contract/user-messages.ts';

/**
 * Tables of the message center (migration 0015-messages.ts), merged into the Kysely `Database`
 * interface of db/schema.ts by declaration merging, so this module's schema lives beside it.
 */
/** messages.sms_status: null (no SMS wanted) → pending → sending → sent | skipped (no phone / no template) | failed. */
export type MessageSmsStatus = 'pending' | 'sending' | 'sent' | 'skipped' | 'failed';
export interface MessagesTable {
  id: Generated<number>;
  user_id: number;
  kind: MessageKind;
  /** NOTICE_TEXTS keys (packages/contract/src/user-messages.ts). */
  title_key: string;
  body_key: string;
  /** JSON object of the template's parameters. */
  params: string;
  link: string | null;
  /** 0: the kind is switched off in the message center (kept for dedupe and the SMS). */
  in_app: number;
  read_at: number | null;
  created_at: number;
  /** Unique per user: the event that made the message (e.g. `sold:<orderNo>`). */
  dedupe_key: string;
  sms_status: MessageSmsStatus | null;
  sms_at: number | null;
}
export interface MessageSettingsTable {
  user_id: number;
  kind: MessageKind;
  in_app: number;
  sms: number;
  updated_at: number;
}
export interface MessageStreamTicketsTable {
  token_hash: string;
  user_id: number;
  /** The public id of the session that asked for it: the stream ends when that session does. */
  session_sid: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
export interface DropRemindersTable {
  project_id: number;
  user_id: number;
  created_at: number;
  notified_at: number | null;
}
export interface SmsNoticeOutboxTable {
  id: Generated<number>;
  message_id: number;
  user_id: number;
  mobile_masked: string;
  template: string;
  text: string;
  created_at: number;
}

declare module '../../db/schema.ts' {
  interface Database {
    messages: MessagesTable;
    message_settings: MessageSettingsTable;
    message_stream_tickets: MessageStreamTicketsTable;
    drop_reminders: DropRemindersTable;
    sms_notice_outbox: SmsNoticeOutboxTable;
  }
}
