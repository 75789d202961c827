import type { AppContext } from '../../context.ts';
import { enqueueJob, type JobResult } from '../../jobs/runner.ts';
import { defineJob, jobOf } from '../../jobs/define-job.ts';
import { inTx, lockKey } from '../../db/tx.ts';
import { recordSecurityEvent } from '../accounts/index.ts';
import { payoutRuntime } from '../payout/index.ts';
import { findCancelBlockers } from './cancel-account.ts';

/** The nickname and avatar every cancelled account shows (where its old orders, deals and history rows still point). */
export const CANCELLED_NICKNAME = '已注销用户';
const DEFAULT_PROFPIC = '1';
/** A mobile that can never be typed (MOBILE_RE needs 11 digits) and stays unique: `x` + the user id. */
export const tombstoneMobile = (userId: number) => `x${userId}`;

export type AnonymiseOutcome = 'anonymised' | 'blocked' | 'not_due' | 'nothing';

/**
 * Ends the cooling-off period of one request, exactly once: one transaction moves the request
 * `cooling → done` with a conditional UPDATE and, only when that update changed the row, anonymises
 * the account; a second run (a retried job, another worker) finds the request no longer cooling and
 * does nothing. If something that would be lost appeared during the period (the account stayed
 * usable), the request ends `blocked` with the blockers instead and the account is untouched.
 *
 * Anonymised: the mobile becomes a tombstone (`x<id>`, no login is possible), password removed,
 * nickname and avatar reset, wallet unlinked, real-name row (sealed name, ID number, birth date and
 * the ID digest) deleted, every session revoked, favourites, search history, wallet challenges,
 * privacy settings and open phone-change tickets deleted, IPs and user agents of its security log
 * and the contact details of its project applications cleared; follows (the creators' follower
 * counts follow), message settings and stream tickets, drop reminders deleted; the payout card
 * binding revoked with its sealed number, reserved phone and digest deleted, started bindings, the
 * payout account's sealed address and the ID-card photos deleted. Kept for accounting, with the user
 * id: orders, order events, payments, deals, bids, listings, ledger rows, goods and their history,
 * withdrawals and refunds (bank name and masked card only), and customer-service tickets.
 * Collectibles minted to the user's wallet stay theirs on chain.
 */
export async function anonymiseAccount(ctx: AppContext, requestId: number): Promise<AnonymiseOutcome> {
  const now = ctx.now();
  const idPhotoKeys: string[] = [];
  let unbind: { merchantNo: string; cardNo: string; bankCode: string; bindId: string | null } | undefined;
  const outcome = await inTx(ctx, async (trx): Promise<AnonymiseOutcome> => {
    idPhotoKeys.length = 0; // inTx may run the body again after a conflict
    unbind = undefined;
    const req = await trx.selectFrom('account_cancellations').select(['user_id', 'status', 'effective_at']).where('id', '=', requestId).executeTakeFirst();
    if (!req || req.status !== 'cooling') return 'nothing';
    if (Number(req.effective_at) > now) return 'not_due';
    const userId = Number(req.user_id);
    await lockKey(ctx, trx, `cancel:${userId}`);
    await lockKey(ctx, trx, `payout:${userId}`); // no withdrawal can start between the check and the card's revocation
    const blockers = await findCancelBlockers(trx, userId, now);
    const next = blockers.length ? 'blocked' : 'done';
    const moved = await trx
      .updateTable('account_cancellations')
      .set({ status: next, closed_at: now, blockers: blockers.length ? JSON.stringify(blockers) : null })
      .where('id', '=', requestId)
      .where('status', '=', 'cooling')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return 'nothing';
    if (blockers.length) {
      await recordSecurityEvent(trx, { userId, kind: 'cancel_blocked', detail: { blockers }, at: now });
      return 'blocked';
    }
    await trx
      .updateTable('users')
      .set({
        mobile: tombstoneMobile(userId),
        password_hash: null,
        nickname: CANCELLED_NICKNAME,
        profpic_id: DEFAULT_PROFPIC,
        is_realname: 0,
        wallet_address: null,
        regist_channel: null,
        cancelled_at: now,
      })
      .where('id', '=', userId)
      .execute();
    await trx.deleteFrom('realname').where('user_id', '=', userId).execute();
    await trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    await trx.updateTable('sessions').set({ ip: null, user_agent: null }).where('user_id', '=', userId).execute();
    await trx.deleteFrom('favorites').where('user_id', '=', userId).execute();
    await trx.deleteFrom('search_history').where('user_id', '=', userId).execute();
    await trx.deleteFrom('wallet_challenges').where('user_id', '=', userId).execute();
    await trx.deleteFrom('privacy_settings').where('user_id', '=', userId).execute();
    await trx.updateTable('mobile_change_tickets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
    await trx.updateTable('security_events').set({ ip: null, user_agent: null }).where('user_id', '=', userId).execute();
    await trx.updateTable('settled_applications').set({ contact_name: '', mobile: '', email: '' }).where('user_id', '=', userId).execute();
    // Follows go, and each creator's follower count with them (it always equals the follows rows).
    await lockKey(ctx, trx, `follow:${userId}`);
    const unfollowed = await trx.deleteFrom('follows').where('user_id', '=', userId).returning('creator_id').execute();
    for (const f of unfollowed) {
      await trx.updateTable('creator_stats').set((eb) => ({ followers: eb('followers', '-', 1), updated_at: now })).where('creator_id', '=', Number(f.creator_id)).execute();
    }
    await trx.deleteFrom('message_settings').where('user_id', '=', userId).execute();
    await trx.deleteFrom('message_stream_tickets').where('user_id', '=', userId).execute();
    await trx.deleteFrom('drop_reminders').where('user_id', '=', userId).execute();
    // Money out: the card binding is revoked and its sealed number, phone and digest deleted (the rows
    // stay, masked, because withdrawals point at them for accounting); started bindings are deleted;
    // the payout account keeps its state and merchant number but not the sealed address; the ID-card
    // photos are deleted (rows here, files after the commit).
    const card = await trx.selectFrom('payout_cards').select(['card_sealed', 'bank_code', 'provider_bind_id']).where('user_id', '=', userId).where('status', '=', 'active').executeTakeFirst();
    const account = await trx.selectFrom('payout_accounts').select('merchant_no').where('user_id', '=', userId).executeTakeFirst();
    if (card && account?.merchant_no) unbind = { merchantNo: account.merchant_no, cardNo: ctx.secrets.open(card.card_sealed), bankCode: card.bank_code, bindId: card.provider_bind_id };
    await trx.updateTable('payout_cards').set({ status: 'unbound', ended_at: now }).where('user_id', '=', userId).where('status', '=', 'active').execute();
    await trx.updateTable('payout_cards').set({ card_sealed: '', mobile_sealed: '', card_digest: '' }).where('user_id', '=', userId).execute();
    await trx.deleteFrom('payout_card_requests').where('user_id', '=', userId).execute();
    await trx.updateTable('payout_accounts').set({ address_sealed: '', updated_at: now }).where('user_id', '=', userId).execute();
    const photos = await trx.deleteFrom('payout_identity').where('user_id', '=', userId).returning('upload_id').execute();
    if (photos.length) {
      const ids = photos.map((p) => Number(p.upload_id));
      idPhotoKeys.push(...(await trx.selectFrom('uploads').select('key').where('id', 'in', ids).execute()).map((u) => u.key));
      await trx.deleteFrom('uploads').where('id', 'in', ids).where('user_id', '=', userId).execute();
    }
    await recordSecurityEvent(trx, { userId, kind: 'account_cancelled', detail: { requestId }, at: now });
    return 'anonymised';
  });
  // After the commit: the card's binding at the payout provider, and the ID-card photos' files (best
  // effort, like unbindCard; a crash just before leaves an unreferenced private file, never a readable one).
  if (outcome === 'anonymised') {
    const provider = payoutRuntime(ctx)?.provider;
    if (unbind && provider) await provider.unbindCard(unbind).catch(() => undefined);
    for (const key of idPhotoKeys) await ctx.storage.delete(key).catch(() => {});
  }
  return outcome;
}

/** The durable job of one request (`anonymise:<requestId>`); a request not due yet is looked at again in a minute. */
/** The durable job `anonymise:<requestId>` of a cancellation whose cooling-off is over (its handler: runAnonymiseJob). */
export const anonymiseJob = defineJob<'anonymise', { requestId: number }>('anonymise', {
  key: (p) => `anonymise:${p.requestId}`,
  read: (job) => ({ requestId: Number(job.payload.requestId ?? job.key.replace(/^anonymise:/, '')) }),
});

export async function runAnonymiseJob(ctx: AppContext, requestId: number): Promise<JobResult> {
  const outcome = await anonymiseAccount(ctx, requestId);
  return outcome === 'not_due' ? { retryAt: Date.now() + 60_000 } : { done: true };
}

/**
 * The sweep: requests whose cooling-off period ended (by business time, ctx.now) get their job,
 * inserted idempotently (the job key is the request id), then the worker is woken.
 */
export async function enqueueDueCancellations(ctx: AppContext): Promise<number> {
  const due = await ctx.db.kysely
    .selectFrom('account_cancellations')
    .select('id')
    .where('status', '=', 'cooling')
    .where('effective_at', '<=', ctx.now())
    .orderBy('effective_at')
    .limit(200)
    .execute();
  if (!due.length) return 0;
  await inTx(ctx, async (trx) => {
    for (const r of due) await enqueueJob(trx, jobOf(anonymiseJob, { requestId: Number(r.id) }));
  });
  ctx.jobs.wake();
  return due.length;
}

/** Registers the cancellation job and its sweep on the job worker (ctx.jobs; one worker per database). */
export function registerAccountJobs(ctx: AppContext) {
  ctx.jobs.handle(anonymiseJob, (p) => runAnonymiseJob(ctx, p.requestId));
  ctx.jobs.periodic('account-cancellations', ctx.config.privacy.cancelSweepMs, () => enqueueDueCancellations(ctx));
}
