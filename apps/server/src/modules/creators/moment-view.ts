import type { Moment, MomentImage } from '@cfx/contract/creators.ts';
import type { AppContext } from '../../context.ts';

export interface MomentRow {
  id: number;
  creator_id: number;
  content_html: string;
  created_at: number;
}

/** The images of these moments, in position order, keyed by moment id (one query). */
export async function imagesOf(ctx: AppContext, momentIds: number[]): Promise<Map<number, MomentImage[]>> {
  const out = new Map<number, MomentImage[]>();
  if (!momentIds.length) return out;
  const rows = await ctx.db.kysely
    .selectFrom('creator_moment_images')
    .select(['moment_id', 'url', 'width', 'height'])
    .where('moment_id', 'in', momentIds)
    .orderBy('moment_id')
    .orderBy('position')
    .execute();
  for (const r of rows) {
    const list = out.get(Number(r.moment_id)) ?? [];
    list.push({ url: r.url, width: Number(r.width), height: Number(r.height) });
    out.set(Number(r.moment_id), list);
  }
  return out;
}

/** Moments as the API answers them; `deletable` when the viewer is their creator's user. */
export async function toMoments(ctx: AppContext, rows: MomentRow[], deletable: (r: MomentRow) => boolean): Promise<Moment[]> {
  const images = await imagesOf(ctx, rows.map((r) => Number(r.id)));
  return rows.map((r) => ({
    id: Number(r.id),
    creatorId: Number(r.creator_id),
    contentHtml: r.content_html,
    images: images.get(Number(r.id)) ?? [],
    createdAt: Number(r.created_at),
    deletable: deletable(r),
  }));
}
