import type { Db } from '../../db/database.ts';
import { rowParts } from '../../db/tx.ts';
import type { SmsOutcome, SmsProvider } from './types.ts';

/** Outbox rows per multi-row insert. */
const NOTICES_PER_INSERT = 64;

/** Development/test provider: each code lands in the sms_outbox table, readable at GET /dev/sms-outbox; message-center notices in sms_notice_outbox. */
export function sandboxSms(db: Db, now: () => number): SmsProvider {
  return {
    name: 'sandbox',
    async send({ mobile, type, code }) {
      await db.kysely.insertInto('sms_outbox').values({ mobile, type, code, created_at: now() }).execute();
    },
    // Notices go to their own outbox (one row per message; the phone masked), so the code outbox stays codes
    // only. The notices of one call land in multi-row inserts: one statement, not one per message.
    async notify(notices) {
      const at = now();
      const out: SmsOutcome[] = [];
      for (const part of rowParts({ db }, notices, NOTICES_PER_INSERT)) {
        try {
          await db.kysely
            .insertInto('sms_notice_outbox')
            .values(part.map((n) => ({ message_id: n.messageId, user_id: n.userId, mobile_masked: n.mobile.replace(/^(\d{3})\d{4}(\d{4})$/, '$1****$2'), template: n.template, text: n.text.slice(0, 500), created_at: at })))
            .onConflict((oc) => oc.column('message_id').doNothing())
            .execute();
          for (const _ of part) out.push('sent');
        } catch (err) {
          for (const _ of part) out.push(err as Error);
        }
      }
      return out;
    },
  };
}
