import type { Db } from '../../db/database.ts';
import type { SmsProvider } from './types.ts';

/** Development/test provider: each code lands in the sms_outbox table, readable at GET /dev/sms-outbox; message-center notices in sms_notice_outbox. */
export function sandboxSms(db: Db, now: () => number): SmsProvider {
  return {
    name: 'sandbox',
    async send({ mobile, type, code }) {
      await db.kysely.insertInto('sms_outbox').values({ mobile, type, code, created_at: now() }).execute();
    },
    // Notices go to their own outbox (one row per message; the phone masked), so the code outbox stays codes only.
    async notify({ mobile, userId, messageId, template, text }) {
      await db.kysely
        .insertInto('sms_notice_outbox')
        .values({ message_id: messageId, user_id: userId, mobile_masked: mobile.replace(/^(\d{3})\d{4}(\d{4})$/, '$1****$2'), template, text: text.slice(0, 500), created_at: now() })
        .onConflict((oc) => oc.column('message_id').doNothing())
        .execute();
      return 'sent';
    },
  };
}
