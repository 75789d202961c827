import type { AppContext } from '../../context.ts';
import { keyList } from '../../db/key-list.ts';
import { groupBy } from '../../util/group-by.ts';
import type { JobResult } from '../../jobs/runner.ts';
import type { SmsNotice } from '../../providers/sms/types.ts';
import { defineJob } from '../../jobs/define-job.ts';
import { parseParams, renderNotice, templateVars } from './render.ts';
import './tables.ts';

/** Phones that can receive an SMS (a cancelled account's tombstone `x<id>` cannot). */
const MOBILE_RE = /^1\d{10}$/;

/**
 * The job `msg-sms:<messageId>` (inserted with its messages, so only committed messages have one):
 * sends each message's SMS through ctx.sms exactly once. One job carries one message, or the
 * messages a burst of notices wrote together (`messageIds`, keyed by the first of them).
 *
 * The message row is the send's state: `pending → sending` is a conditional UPDATE (only one runner
 * wins), then the provider is called once with the job's notices, then each `sent` (or `skipped`: no
 * phone that can receive SMS, or no provider template for it). A provider error puts that message
 * back to `pending` and the job retries with backoff (the messages already sent stay sent); after
 * MessagesConfig.smsMaxAttempts it ends `failed`. A process dying between the claim and the
 * provider's answer leaves `sending`, which is never sent again: at most one SMS per message even
 * then (the sandbox outbox is also unique per message). The phone is read at send time and is never
 * logged; errors are logged without it.
 */
/** The durable job `msg-sms:<messageId>` (its handler: runMessageSmsJob). */
export const messageSmsJob = defineJob<'msg-sms', { messageId: number; messageIds?: number[] }>('msg-sms', {
  key: (p) => `msg-sms:${p.messageId}`,
  read: (job) => {
    const messageId = Number(job.payload.messageId ?? job.key.replace(/^msg-sms:/, ''));
    const ids = Array.isArray(job.payload.messageIds) ? job.payload.messageIds.map(Number).filter((n) => Number.isSafeInteger(n)) : [];
    return ids.length ? { messageId, messageIds: ids } : { messageId };
  },
});

/** The SMS job of messages written together: one job for all of them (single → `{ messageId }`). */
export function messageSmsJobOf(messageIds: readonly number[]) {
  return messageIds.length === 1 ? { messageId: messageIds[0]! } : { messageId: messageIds[0]!, messageIds: [...messageIds] };
}

export async function runMessageSmsJob(ctx: AppContext, p: { messageId: number; messageIds?: number[] }, attempts: number): Promise<JobResult> {
  const k = ctx.db.kysely;
  const ids = p.messageIds?.length ? p.messageIds : [p.messageId];
  const claimed = await k.updateTable('messages').set({ sms_status: 'sending' }).where('id', 'in', keyList(ctx, ids)).where('sms_status', '=', 'pending').returning('id').execute();
  if (!claimed.length) return { done: true };
  const rows = await k
    .selectFrom('messages')
    .innerJoin('users', 'users.id', 'messages.user_id')
    .select(['messages.id', 'messages.user_id', 'messages.title_key', 'messages.body_key', 'messages.params', 'users.mobile'])
    .where('messages.id', 'in', keyList(ctx, claimed.map((c) => Number(c.id))))
    .orderBy('messages.id')
    .execute();
  const finished: { id: number; status: 'sent' | 'skipped' | 'failed' | 'pending' }[] = [];
  const finishAs = (id: number, status: (typeof finished)[number]['status']) => finished.push({ id, status });
  // A claimed message whose row or user is gone: nothing to send.
  const found = new Set(rows.map((m) => Number(m.id)));
  for (const c of claimed) if (!found.has(Number(c.id))) finishAs(Number(c.id), 'skipped');
  const sendable: { id: number; notice: SmsNotice }[] = [];
  for (const m of rows) {
    const messageId = Number(m.id);
    if (!MOBILE_RE.test(m.mobile)) {
      finishAs(messageId, 'skipped');
      continue;
    }
    const params = parseParams(m.params);
    const template = m.title_key.replace(/\.title$/, '');
    const text = `${renderNotice(m.title_key, params, 'zh')}：${renderNotice(m.body_key, params, 'zh')}`;
    sendable.push({ id: messageId, notice: { mobile: m.mobile, userId: Number(m.user_id), messageId, template, params: templateVars(params), text } });
  }
  // The job's notices in one call: the provider sends each (the sandbox writes them in one statement).
  let error: Error | undefined;
  const outcomes = sendable.length ? await ctx.sms.notify(sendable.map((s) => s.notice)).catch((err: unknown) => sendable.map(() => err as Error)) : [];
  for (let i = 0; i < sendable.length; i++) {
    const id = sendable[i]!.id;
    const r = outcomes[i] ?? new Error('no outcome from the SMS provider');
    if (r === 'sent' || r === 'skipped') {
      finishAs(id, r);
      continue;
    }
    finishAs(id, attempts >= ctx.config.messages.smsMaxAttempts ? 'failed' : 'pending');
    // The provider's code and message, never the phone.
    error ??= new Error(`message sms ${id} failed: ${String(r?.message ?? r).replace(/1\d{10}/g, '1**********')}`, { cause: r });
  }
  const now = ctx.now();
  const outcome = groupBy(finished, (f) => f.status);
  for (const [status, list] of outcome) {
    await k.updateTable('messages').set({ sms_status: status, sms_at: status === 'pending' ? null : now }).where('id', 'in', keyList(ctx, list.map((f) => f.id))).where('sms_status', '=', 'sending').execute();
  }
  // Rethrown while a message waits for another attempt: the runner logs it and retries with backoff.
  if (error && outcome.has('pending')) throw error;
  return { done: true };
}
