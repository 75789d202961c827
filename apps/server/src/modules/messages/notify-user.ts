import { DEFAULT_MESSAGE_SETTINGS, type MessageKind, type NoticeTemplate } from '@cfx/contract/user-messages.ts';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import { enqueueJob } from '../../jobs/runner.ts';
import { jobOf } from '../../jobs/define-job.ts';
import { messageSmsJob } from './send-message-sms.ts';
import type { NoticeParams } from './render.ts';
import { signalUser } from './signal.ts';
import './tables.ts';

export interface NotifyOptions {
  /** Unique per user: the event (e.g. `sold:<orderNo>`). A second call with the same key does nothing. */
  dedupeKey: string;
  /** A site path the message opens. */
  link?: string | null;
  /** The NOTICE_TEXTS template when it is not the kind's own (the lottery's lottery_won / lottery_lost). */
  template?: NoticeTemplate;
  /** Business time of the event (default ctx.now()). */
  now?: number;
}

/** The user's switches for a kind (the defaults without a saved row). */
export async function settingOf(q: Q, userId: number, kind: MessageKind): Promise<{ inApp: boolean; sms: boolean }> {
  const s = await q.selectFrom('message_settings').select(['in_app', 'sms']).where('user_id', '=', userId).where('kind', '=', kind).executeTakeFirst();
  return s ? { inApp: Number(s.in_app) === 1, sms: Number(s.sms) === 1 } : DEFAULT_MESSAGE_SETTINGS[kind];
}

/**
 * Notifies a user: one `messages` row, inserted with `q` — pass the business transaction, so a
 * rolled-back business change leaves no message, no SMS and no stream event. Idempotent by
 * (user, dedupeKey): a replay returns null and changes nothing. By the user's settings for the
 * kind: shown in the message center (and pushed to their open streams after commit) or kept
 * hidden; an SMS wanted → the durable job `msg-sms:<id>` in the same transaction, sent after
 * commit exactly once (send-message-sms.ts). Returns the new message's id, or null for a replay.
 *
 * Parameters are stored as given and rendered in the reader's language when read: amounts as
 * `…Fen` (integer fen), instants as `…At` (epoch ms); see render.ts.
 */
export async function notifyUser(
  ctx: Pick<AppContext, 'db' | 'now'>,
  q: Q,
  userId: number,
  kind: MessageKind,
  params: NoticeParams,
  opts: NotifyOptions,
): Promise<number | null> {
  const now = opts.now ?? ctx.now();
  const template = opts.template ?? (kind === 'lottery_result' ? 'lottery_lost' : kind);
  const setting = await settingOf(q, userId, kind);
  const row = await q
    .insertInto('messages')
    .values({
      user_id: userId,
      kind,
      title_key: `${template}.title`,
      body_key: `${template}.body`,
      params: JSON.stringify(params),
      link: opts.link ?? null,
      in_app: setting.inApp ? 1 : 0,
      read_at: null,
      created_at: now,
      dedupe_key: opts.dedupeKey.slice(0, 120),
      sms_status: setting.sms ? 'pending' : null,
      sms_at: null,
    })
    .onConflict((oc) => oc.columns(['user_id', 'dedupe_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) return null;
  const id = Number(row.id);
  if (setting.sms) await enqueueJob(q, jobOf(messageSmsJob, { messageId: id }));
  if (setting.inApp) await signalUser(ctx.db, q, userId);
  return id;
}
