import type { AppContext } from '../../context.ts';
import { changed } from '../../db/tx.ts';
import type { JobResult } from '../../jobs/runner.ts';
import { defineJob } from '../../jobs/define-job.ts';
import { parseParams, renderNotice, templateVars } from './render.ts';
import './tables.ts';

/** Phones that can receive an SMS (a cancelled account's tombstone `x<id>` cannot). */
const MOBILE_RE = /^1\d{10}$/;

/**
 * The job `msg-sms:<messageId>` (inserted with the message, so only a committed message has one):
 * sends the message's SMS through ctx.sms exactly once.
 *
 * The message row is the send's state: `pending → sending` is a conditional UPDATE (only one runner
 * wins), then the provider is called, then `sent` (or `skipped`: no phone that can receive SMS, or
 * no provider template for it). A provider error puts it back to `pending` and the job retries with
 * backoff; after MessagesConfig.smsMaxAttempts it ends `failed`. A process dying between the claim
 * and the provider's answer leaves `sending`, which is never sent again: at most one SMS per message
 * even then (the sandbox outbox is also unique per message). The phone is read at send time and is
 * never logged; errors are logged without it.
 */
/** The durable job `msg-sms:<messageId>` (its handler: runMessageSmsJob). */
export const messageSmsJob = defineJob<'msg-sms', { messageId: number }>('msg-sms', {
  key: (p) => `msg-sms:${p.messageId}`,
  read: (job) => ({ messageId: Number(job.payload.messageId ?? job.key.replace(/^msg-sms:/, '')) }),
});

export async function runMessageSmsJob(ctx: AppContext, messageId: number, attempts: number): Promise<JobResult> {
  const k = ctx.db.kysely;
  const claimed = await k.updateTable('messages').set({ sms_status: 'sending' }).where('id', '=', messageId).where('sms_status', '=', 'pending').executeTakeFirst();
  if (changed(claimed) !== 1) return { done: true };
  const m = await k
    .selectFrom('messages')
    .innerJoin('users', 'users.id', 'messages.user_id')
    .select(['messages.id', 'messages.user_id', 'messages.title_key', 'messages.body_key', 'messages.params', 'users.mobile'])
    .where('messages.id', '=', messageId)
    .executeTakeFirst();
  const finish = (status: 'sent' | 'skipped' | 'failed' | 'pending') =>
    k.updateTable('messages').set({ sms_status: status, sms_at: status === 'pending' ? null : ctx.now() }).where('id', '=', messageId).where('sms_status', '=', 'sending').execute();
  if (!m || !MOBILE_RE.test(m.mobile)) {
    await finish('skipped');
    return { done: true };
  }
  const params = parseParams(m.params);
  const template = m.title_key.replace(/\.title$/, '');
  const text = `${renderNotice(m.title_key, params, 'zh')}：${renderNotice(m.body_key, params, 'zh')}`;
  try {
    const outcome = await ctx.sms.notify({ mobile: m.mobile, userId: Number(m.user_id), messageId, template, params: templateVars(params), text });
    await finish(outcome);
    return { done: true };
  } catch (err) {
    if (attempts >= ctx.config.messages.smsMaxAttempts) {
      await finish('failed');
      return { done: true };
    }
    await finish('pending');
    // Rethrown: the runner logs it (the provider's code and message, never the phone) and retries with backoff.
    throw new Error(`message sms ${messageId} failed: ${String((err as Error)?.message ?? err).replace(/1\d{10}/g, '1**********')}`, { cause: err });
  }
}
