import { CREATOR_LIMITS } from '@cfx/contract/creator-rules.ts';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import { hashString } from '../../util/prng.ts';
import { ART_STYLES, imageId, imageUrl } from '../content/index.ts';
import { notifyUser } from '../messages/index.ts';

/** At most `max` characters (code points), trimmed. */
const clip = (s: string, max: number) => [...s.trim()].slice(0, max).join('').trim();

export interface OnboardResult {
  creatorId: number;
  /** false: the applicant already was a creator (nothing was created). */
  created: boolean;
}

/**
 * Makes the applicant of an approved project application a creator, in the approval's
 * transaction `trx` (settled/review-application.ts):
 * - `users.is_creator = 1` and a `creators` row bound to their user, its profile built from the
 *   application: name = the creator name they applied with, avatar = their first artwork image,
 *   banner = their last artwork image (generated artwork when there is none), intro = the project
 *   description (cut to the intro limit), no media links (the form collects none; staff or the
 *   creator add them), `application_id` = the application;
 * - an applicant who already is a creator keeps their creator as it is (nothing is created twice;
 *   creators.user_id is unique, so two approvals racing cannot create two either);
 * - the applicant gets an `application_approved` message (message center, both languages), once
 *   per application (its dedupe key).
 */
export async function onboardCreator(ctx: AppContext, trx: Q, applicationId: number, now: number): Promise<OnboardResult> {
  const app = await trx
    .selectFrom('settled_applications')
    .select(['user_id', 'project_name', 'creator_name', 'description'])
    .where('id', '=', applicationId)
    .executeTakeFirstOrThrow();
  const userId = Number(app.user_id);
  const user = await trx.selectFrom('users').select(['account_id', 'nickname']).where('id', '=', userId).executeTakeFirstOrThrow();
  const existing = await trx.selectFrom('creators').select('id').where('user_id', '=', userId).executeTakeFirst();
  let creatorId: number;
  let created = false;
  if (existing) {
    creatorId = Number(existing.id);
  } else {
    const art = await trx
      .selectFrom('settled_application_files as f')
      .innerJoin('uploads as u', 'u.id', 'f.upload_id')
      .select(['u.key'])
      .where('f.application_id', '=', applicationId)
      .where('f.role', '=', 'artwork')
      .where('u.key', 'like', 'public/%')
      .orderBy('f.position')
      .execute();
    const seed = hashString(`creator-user:${user.account_id}`);
    const style = seed % ART_STYLES;
    const first = art[0] ? ctx.storage.url(art[0].key) : imageUrl(imageId('c', style, seed));
    const last = art.length ? ctx.storage.url(art[art.length - 1]!.key) : imageUrl(imageId('cb', style, seed));
    const row = await trx
      .insertInto('creators')
      .values({
        user_id: userId,
        name: clip(app.creator_name, CREATOR_LIMITS.nameMax) || clip(user.nickname, CREATOR_LIMITS.nameMax),
        avatar: first,
        banner: last,
        intro: clip(app.description.replace(/\r\n?/g, '\n'), CREATOR_LIMITS.introMax),
        media_links: '[]',
        sort: 0,
        created_at: now,
        application_id: applicationId,
        disabled_at: null,
        verified_at: null,
        updated_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    creatorId = Number(row.id);
    created = true;
  }
  await trx.updateTable('users').set({ is_creator: 1 }).where('id', '=', userId).execute();
  await notifyUser(ctx, trx, userId, 'application_approved', { project: app.project_name }, {
    dedupeKey: `application_approved:${applicationId}`,
    link: `/creator/${user.account_id}`,
    now,
  });
  return { creatorId, created };
}
