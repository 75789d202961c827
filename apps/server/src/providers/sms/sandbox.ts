import type { Db } from '../../db/database.ts';
import type { SmsProvider } from './types.ts';

/** Development/test provider: each message lands in the sms_outbox table, readable at GET /dev/sms-outbox. */
export function sandboxSms(db: Db, now: () => number): SmsProvider {
  return {
    name: 'sandbox',
    async send({ mobile, type, code }) {
      await db.kysely.insertInto('sms_outbox').values({ mobile, type, code, created_at: now() }).execute();
    },
  };
}
