import { Status } from '@cfx/contract/envelope.ts';
import { invalidSettledFields, SETTLED_FIELD_MESSAGES, SETTLED_OPEN_STATUSES, type SettledInput } from '@cfx/contract/settled-rules.ts';
import type { SettledSubmitBody } from '@cfx/contract/settled.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { inTx, isUniqueViolation } from '../../db/tx.ts';
import type { SettledStatus } from '../../db/schema.ts';

/** A whole number from a JSON number or a digit string; NaN otherwise (the rules then refuse it). */
const whole = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v.trim()) : NaN);

/** The body as the rules judge it: text trimmed, numbers from numbers or digit strings, agree only when true / 1 / "1" / "true". */
export function normaliseSubmit(b: SettledSubmitBody): SettledInput {
  return {
    projectName: b.projectName.trim(),
    creatorName: b.creatorName.trim(),
    contactName: b.contactName.trim(),
    mobile: b.mobile.trim(),
    email: b.email.trim(),
    category: b.category.trim(),
    description: b.description.trim(),
    supply: whole(b.supply),
    priceFen: whole(b.priceFen),
    artworkKeys: b.artworkKeys,
    qualificationKeys: b.qualificationKeys,
    agree: b.agree === true || b.agree === 1 || b.agree === '1' || b.agree === 'true',
  };
}

/**
 * POST /official/settled: a project application by a logged-in user.
 * - The form's rules (settled-rules.ts), first broken one answered as 1001 with its message.
 * - Attachments: every artwork key must be one of the applicant's own image uploads and every
 *   qualification key one of their own document uploads; anyone else's (or an unknown key) is 1012.
 * - One open application (submitted or reviewing) per user: a second is 1031 until the first is
 *   decided; the partial unique index settled_one_open makes that hold under parallel submits too.
 *   After an approval or a rejection the user may apply again (another project, or a corrected one).
 */
export async function submitApplication(ctx: AppContext, userId: number, body: SettledSubmitBody): Promise<{ id: number; status: SettledStatus }> {
  const input = normaliseSubmit(body);
  const bad = invalidSettledFields(input);
  if (bad.length) throw new ApiError(Status.INVALID, SETTLED_FIELD_MESSAGES[bad[0]!]);

  const now = ctx.now();
  try {
    return await inTx(ctx, async (trx) => {
      const open = await trx
        .selectFrom('settled_applications')
        .select('id')
        .where('user_id', '=', userId)
        .where('status', 'in', [...SETTLED_OPEN_STATUSES])
        .executeTakeFirst();
      if (open) throw new ApiError(Status.SETTLED_STATE, 'settledOpenExists');

      const keys = [...input.artworkKeys, ...input.qualificationKeys];
      const uploads = await trx.selectFrom('uploads').select(['id', 'key', 'kind']).where('user_id', '=', userId).where('key', 'in', keys).execute();
      const byKey = new Map(uploads.map((u) => [u.key, u]));
      if (keys.some((k) => !byKey.has(k))) throw new ApiError(Status.FORBIDDEN, 'uploadNotYours');
      if (input.artworkKeys.some((k) => byKey.get(k)!.kind !== 'image')) throw new ApiError(Status.INVALID, 'settledBadArtwork');
      if (input.qualificationKeys.some((k) => byKey.get(k)!.kind !== 'document')) throw new ApiError(Status.INVALID, 'settledBadQualification');

      const app = await trx
        .insertInto('settled_applications')
        .values({
          user_id: userId,
          project_name: input.projectName,
          creator_name: input.creatorName,
          category: input.category,
          description: input.description,
          supply: input.supply,
          price_fen: input.priceFen,
          contact_name: input.contactName,
          mobile: input.mobile,
          email: input.email,
          status: 'submitted',
          reject_reason: null,
          reviewed_by: null,
          reviewed_at: null,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(app.id);
      const files = [
        ...input.artworkKeys.map((k, i) => ({ application_id: id, upload_id: Number(byKey.get(k)!.id), role: 'artwork' as const, position: i })),
        ...input.qualificationKeys.map((k, i) => ({ application_id: id, upload_id: Number(byKey.get(k)!.id), role: 'qualification' as const, position: i })),
      ];
      await trx.insertInto('settled_application_files').values(files).execute();
      await trx
        .insertInto('settled_application_events')
        .values({ application_id: id, from_status: null, to_status: 'submitted', actor_user_id: userId, reason: null, created_at: now })
        .execute();
      return { id, status: 'submitted' as const };
    });
  } catch (err) {
    // Two submits at once: the loser hits the one-open index.
    if (isUniqueViolation(err)) throw new ApiError(Status.SETTLED_STATE, 'settledOpenExists');
    throw err;
  }
}
