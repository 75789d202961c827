import type { SettledApplication } from '@cfx/contract/settled.ts';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import { uploadUrl } from '../uploads/index.ts';

/**
 * Applications as the API shows them, with their attached files (artworks by their public URL,
 * qualification documents by the owner-only download path), in the order they were attached.
 */
export async function applicationViews(ctx: Pick<AppContext, 'db' | 'storage'>, ids: number[], q: Q = ctx.db.kysely): Promise<SettledApplication[]> {
  if (!ids.length) return [];
  const rows = await q.selectFrom('settled_applications').selectAll().where('id', 'in', ids).orderBy('id', 'desc').execute();
  const files = await q
    .selectFrom('settled_application_files as f')
    .innerJoin('uploads as u', 'u.id', 'f.upload_id')
    .select(['f.application_id', 'f.role', 'f.position', 'u.key', 'u.original_name', 'u.size', 'u.content_type'])
    .where('f.application_id', 'in', ids)
    .orderBy('f.application_id')
    .orderBy('f.position')
    .execute();
  return rows.map((a) => {
    const mine = files.filter((f) => Number(f.application_id) === Number(a.id));
    const view = (role: string) =>
      mine
        .filter((f) => f.role === role)
        .map((f) => ({ url: uploadUrl(ctx, f.key), key: f.key, name: f.original_name, size: Number(f.size), type: f.content_type }));
    return {
      id: Number(a.id),
      projectName: a.project_name,
      creatorName: a.creator_name,
      category: a.category,
      description: a.description,
      supply: Number(a.supply),
      priceFen: Number(a.price_fen),
      contactName: a.contact_name,
      mobile: a.mobile,
      email: a.email,
      status: a.status,
      rejectReason: a.reject_reason,
      artworks: view('artwork'),
      qualifications: view('qualification'),
      createdAt: Number(a.created_at),
      updatedAt: Number(a.updated_at),
      reviewedAt: a.reviewed_at === null ? null : Number(a.reviewed_at),
    };
  });
}
