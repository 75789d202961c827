import { CREATOR_LIMITS } from '@cfx/contract/creator-rules.ts';
import type { Moment } from '@cfx/contract/creators.ts';
import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { inTx } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { storedImageSize } from './image-size.ts';
import { sanitizeMoment } from './moment-html.ts';
import { toMoments } from './moment-view.ts';
import { ownedImages } from './owned-images.ts';
import { requireOwnCreator } from './own-creator.ts';

const DAY = 24 * 3600_000;

/**
 * A creator posts a moment: a text (plain, or the minimal HTML of moment-html.ts, sanitised; at
 * most CREATOR_LIMITS.momentTextMax characters of plain text) and 0–9 images, each one of the
 * creator's own image uploads (saveUpload's image policy: sniffed type, size and pixel bounds).
 * Nothing at all is refused, as are more than 9 images, the same image twice, an upload that is
 * not the creator's (1012), and more than CREATOR_LIMITS.momentsPerDay moments in 24 hours (1006;
 * deleted ones count too). Image sizes are read from the stored files before the transaction.
 */
export async function addMoment(ctx: AppContext, userId: number, input: { content: string; imageKeys: string[] }): Promise<Moment> {
  const creator = await requireOwnCreator(ctx, userId);
  const body = sanitizeMoment(input.content);
  const keys = input.imageKeys.map((k) => k.trim());
  if ([...body.text].length > CREATOR_LIMITS.momentTextMax) throw new ApiError(Status.INVALID, 'momentTooLong', { n: CREATOR_LIMITS.momentTextMax });
  if (keys.length > CREATOR_LIMITS.momentImagesMax) throw new ApiError(Status.INVALID, 'momentTooManyImages', { n: CREATOR_LIMITS.momentImagesMax });
  if (new Set(keys).size !== keys.length) throw new ApiError(Status.INVALID, 'momentDuplicateImage');
  if (!body.text && keys.length === 0) throw new ApiError(Status.INVALID, 'momentEmpty');

  const images = await ownedImages(ctx, userId, keys);
  const sized = await Promise.all(
    images.map(async (img) => {
      const size = await storedImageSize(ctx, img.key);
      // An upload whose file is gone or unreadable is as good as not the user's.
      if (!size) throw new ApiError(Status.FORBIDDEN, 'uploadNotYours');
      return { ...img, ...size, url: ctx.storage.url(img.key) };
    }),
  );

  const now = ctx.now();
  const row = await inTx(ctx, async (trx) => {
    const today = await trx
      .selectFrom('creator_moments')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('creator_id', '=', creator.id)
      .where('created_at', '>', now - DAY)
      .executeTakeFirst();
    if (Number(today?.n ?? 0) >= CREATOR_LIMITS.momentsPerDay) throw new ApiError(Status.RATE_LIMITED, 'momentDailyCap', { n: CREATOR_LIMITS.momentsPerDay });
    const m = await trx
      .insertInto('creator_moments')
      .values({ creator_id: creator.id, author_user_id: userId, content_html: body.html, content_text: body.text, image_count: sized.length, created_at: now, deleted_at: null })
      .returning(['id', 'creator_id', 'content_html', 'created_at'])
      .executeTakeFirstOrThrow();
    if (sized.length) {
      await trx
        .insertInto('creator_moment_images')
        .values(sized.map((img, position) => ({ moment_id: Number(m.id), position, upload_id: img.id, url: img.url, width: img.width, height: img.height })))
        .execute();
    }
    return m;
  });
  const [moment] = await toMoments(ctx, [row], () => true);
  return moment!;
}
