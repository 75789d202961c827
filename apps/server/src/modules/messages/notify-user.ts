import { DEFAULT_MESSAGE_SETTINGS, type MessageKind, type NoticeTemplate } from '@cfx/contract/user-messages.ts';
import type { AppContext } from '../../context.ts';
import { keyList } from '../../db/key-list.ts';
import { rowParts, type Q } from '../../db/tx.ts';
import { enqueueJobs } from '../../jobs/runner.ts';
import { jobOf } from '../../jobs/define-job.ts';
import { messageSmsJob, messageSmsJobOf } from './send-message-sms.ts';
import type { NoticeParams } from './render.ts';
import { signalUsers } from './signal.ts';
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

/**
 * Notifies a user: one `messages` row, inserted with `q` — pass the business transaction, so a
 * rolled-back business change leaves no message, no SMS and no stream event. Idempotent by
 * (user, dedupeKey): a replay returns null and changes nothing. By the user's settings for the
 * kind: shown in the message center (and pushed to their open streams after commit) or kept
 * hidden; an SMS wanted → the durable job `msg-sms:<id>` in the same transaction (one job for the
 * messages of one notifyUsers part), sent after commit exactly once (send-message-sms.ts). Returns
 * the new message's id, or null for a replay.
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
  return (await notifyUsers(ctx, q, [{ userId, kind, params, opts }]))[0]!;
}

/** One notification of notifyUsers. */
export interface Notice {
  userId: number;
  kind: MessageKind;
  params: NoticeParams;
  opts: NotifyOptions;
}

/** Messages per multi-row statement of notifyUsers. */
const NOTICES_PER_STATEMENT = 64;

/**
 * notifyUser for many notices in a few statements (a burst of settled sales notifies its sellers
 * together): one read of the users' settings, one multi-row insert of the messages per part, one of
 * their SMS jobs. Answers per notice as notifyUser does: the new message's id, or null for a replay
 * (also for a notice repeated in the same call).
 */
export async function notifyUsers(ctx: Pick<AppContext, 'db' | 'now'>, q: Q, notices: readonly Notice[]): Promise<(number | null)[]> {
  if (!notices.length) return [];
  const settings = await settingsOf(ctx, q, notices);
  const setting = (n: Notice) => settings.get(`${n.userId}|${n.kind}`) ?? DEFAULT_MESSAGE_SETTINGS[n.kind];
  const keyOf = (userId: number, dedupeKey: string) => `${userId}|${dedupeKey}`;
  const ids = new Map<string, number>();
  for (const part of rowParts(ctx, notices, NOTICES_PER_STATEMENT)) {
    const rows = await q
      .insertInto('messages')
      .values(
        part.map((n) => {
          const template = n.opts.template ?? (n.kind === 'lottery_result' ? 'lottery_lost' : n.kind);
          const s = setting(n);
          return {
            user_id: n.userId,
            kind: n.kind,
            title_key: `${template}.title`,
            body_key: `${template}.body`,
            params: JSON.stringify(n.params),
            link: n.opts.link ?? null,
            in_app: s.inApp ? 1 : 0,
            read_at: null,
            created_at: n.opts.now ?? ctx.now(),
            dedupe_key: n.opts.dedupeKey.slice(0, 120),
            sms_status: s.sms ? ('pending' as const) : null,
            sms_at: null,
          };
        }),
      )
      .onConflict((oc) => oc.columns(['user_id', 'dedupe_key']).doNothing())
      .returning(['id', 'user_id', 'dedupe_key'])
      .execute();
    for (const r of rows) ids.set(keyOf(Number(r.user_id), r.dedupe_key), Number(r.id));
    // One SMS job for this part's new messages that want one, in the same transaction.
    const sms = [...new Set(part.flatMap((n) => {
      const id = ids.get(keyOf(n.userId, n.opts.dedupeKey.slice(0, 120)));
      return id !== undefined && setting(n).sms ? [id] : [];
    }))].sort((a, b) => a - b);
    if (sms.length) await enqueueJobs(q, [jobOf(messageSmsJob, messageSmsJobOf(sms))]);
  }
  const out = notices.map((n) => {
    const key = keyOf(n.userId, n.opts.dedupeKey.slice(0, 120));
    const id = ids.get(key);
    if (id === undefined) return null;
    ids.delete(key); // the same notice twice in one call: the second is a replay
    return id;
  });
  const signalled = new Set<number>();
  for (let i = 0; i < notices.length; i++) {
    const n = notices[i]!;
    if (out[i] !== null && setting(n).inApp) signalled.add(n.userId);
  }
  await signalUsers(ctx.db, q, [...signalled]);
  return out;
}

/** The switches of the notices' users for their kinds, in one read (no row: the defaults). */
async function settingsOf(ctx: Pick<AppContext, 'db'>, q: Q, notices: readonly Notice[]) {
  const out = new Map<string, { inApp: boolean; sms: boolean }>();
  const users = [...new Set(notices.map((n) => n.userId))];
  const kinds = [...new Set(notices.map((n) => n.kind))];
  const rows = await q.selectFrom('message_settings').select(['user_id', 'kind', 'in_app', 'sms']).where('user_id', 'in', keyList(ctx, users)).where('kind', 'in', kinds).execute();
  for (const s of rows) out.set(`${Number(s.user_id)}|${s.kind}`, { inApp: Number(s.in_app) === 1, sms: Number(s.sms) === 1 });
  return out;
}
