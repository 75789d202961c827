import { sql } from 'kysely';
import type { AdminCreatorDetail, AdminCreatorRow, Page } from '@cfx/contract/admin.ts';
import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import type { CreatorsTable } from '../../db/schema.ts';
import { changed, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { invalidateProjectInfo } from '../catalog/index.ts';
import { jsonArray } from '../catalog/index.ts';
import { invalidateSearchIndex } from '../search/index.ts';
import { checkCreatorText } from '../creators/index.ts';
import type { AuditEntry } from './audit.ts';
import { checkImage } from './catalog/images.ts';
import { likeEscape } from './users.ts';

/**
 * Creators for the console (docs/admin.md "Creators"): list (search, disabled / verified filters,
 * paging), one creator, edit the profile, disable / enable, the verified mark. Every change runs in
 * the route's transaction with its audit row (c.tx); the public caches of this process are told
 * after the commit (afterCreatorChange).
 */
const COLUMNS = [
  'creators.id', 'creators.user_id', 'users.account_id', 'creators.name', 'creators.avatar', 'creators.banner', 'creators.intro', 'creators.media_links',
  'creators.disabled_at', 'creators.verified_at', 'creators.application_id', 'creators.created_at', 'creators.updated_at',
] as const;

const num = (v: number | null | undefined) => (v === null || v === undefined ? null : Number(v));

function base(q: Q) {
  return q
    .selectFrom('creators')
    .innerJoin('users', 'users.id', 'creators.user_id')
    .select((e) => [
      ...COLUMNS,
      e.selectFrom('projects').select((p) => p.fn.countAll<number>().as('n')).whereRef('projects.creator_id', '=', 'creators.id').as('project_count'),
    ]);
}
type Row = Awaited<ReturnType<ReturnType<typeof base>['executeTakeFirstOrThrow']>>;

function rowView(r: Row): AdminCreatorRow {
  return {
    id: Number(r.id),
    userId: Number(r.user_id),
    accountId: r.account_id,
    name: r.name,
    avatar: r.avatar,
    projectCount: Number(r.project_count ?? 0),
    disabledAt: num(r.disabled_at),
    verifiedAt: num(r.verified_at),
    applicationId: num(r.application_id),
    createdAt: Number(r.created_at),
  };
}

function detailView(r: Row): AdminCreatorDetail {
  return {
    ...rowView(r),
    banner: r.banner,
    intro: r.intro,
    mediaLinks: jsonArray<{ type?: unknown; label?: unknown; url?: unknown }>(r.media_links).map((m) => ({ type: String(m.type ?? ''), label: String(m.label ?? ''), url: String(m.url ?? '') })),
    updatedAt: num(r.updated_at),
  };
}

export async function listCreatorsForStaff(
  ctx: AppContext,
  input: { q: string; disabled?: boolean | null; verified?: boolean | null; pageNum: number; pageSize: number },
): Promise<Page<AdminCreatorRow>> {
  let q = base(ctx.db.kysely);
  const t = input.q.trim();
  if (t) {
    q = q.where((e) =>
      e.or([
        sql<boolean>`creators.name like ${`%${likeEscape(t)}%`} escape '\\'`,
        e('users.account_id', '=', t),
        ...(/^\d{1,15}$/.test(t) ? [e('creators.id', '=', Number(t))] : []),
      ]),
    );
  }
  if (input.disabled !== null && input.disabled !== undefined) q = q.where('creators.disabled_at', input.disabled ? 'is not' : 'is', null);
  if (input.verified !== null && input.verified !== undefined) q = q.where('creators.verified_at', input.verified ? 'is not' : 'is', null);
  const total = Number(
    (await q.clearSelect().select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  );
  const rows = await q
    .orderBy('creators.id', 'desc')
    .limit(input.pageSize)
    .offset((input.pageNum - 1) * input.pageSize)
    .execute();
  return { list: rows.map(rowView), total, pageNum: input.pageNum, pageSize: input.pageSize };
}

export async function creatorForStaff(ctx: AppContext, id: number, q: Q = ctx.db.kysely): Promise<AdminCreatorDetail> {
  const r = await base(q).where('creators.id', '=', id).executeTakeFirst();
  if (!r) throw new ApiError(Status.NOT_FOUND_ITEM, 'creatorNotFound', {}, 404);
  return detailView(r);
}

export interface CreatorEdit {
  id: number;
  name?: string | null;
  intro?: string | null;
  avatar?: string | null;
  banner?: string | null;
  mediaLinks?: { type: string; label: string; url: string }[] | null;
}

type ProfileSet = Partial<Pick<CreatorsTable, 'name' | 'intro' | 'avatar' | 'banner' | 'media_links'>>;

/**
 * Checks a profile edit by the creator rules (the same as the creator's own edit: name 1–40
 * characters on one line, intro ≤ 500, ≤ 8 media links on their platforms' https hosts) and the
 * images as console images (an upload of the console's image route or generated artwork; the
 * current image stays allowed). Outside any transaction: reads only.
 */
export async function checkCreatorEdit(ctx: AppContext, input: CreatorEdit, current: AdminCreatorDetail): Promise<ProfileSet> {
  const set: ProfileSet = checkCreatorText(input);
  if (input.avatar !== undefined && input.avatar !== null) set.avatar = await checkImage(ctx, input.avatar, current.avatar);
  if (input.banner !== undefined && input.banner !== null) set.banner = await checkImage(ctx, input.banner, current.banner);
  return set;
}

/** Writes a checked profile edit: the changed fields with their before / after in the audit entry. */
export async function updateCreatorByStaff(trx: Q, before: AdminCreatorDetail, set: ProfileSet, now: number): Promise<{ changed: string[]; entry: AuditEntry }> {
  const was: Record<string, unknown> = { name: before.name, intro: before.intro, avatar: before.avatar, banner: before.banner, media_links: JSON.stringify(before.mediaLinks) };
  const diff = (Object.keys(set) as (keyof ProfileSet)[]).filter((k) => set[k] !== was[k]);
  if (diff.length) {
    await trx
      .updateTable('creators')
      .set({ ...Object.fromEntries(diff.map((k) => [k, set[k]])), updated_at: now })
      .where('id', '=', before.id)
      .execute();
  }
  const pick = (o: Record<string, unknown>) => Object.fromEntries(diff.map((k) => [k, k === 'intro' ? [...String(o[k])].length : o[k]]));
  return {
    changed: diff,
    entry: { action: 'creator.update', targetType: 'creator', targetId: before.id, summary: { name: before.name, changed: diff, before: pick(was), after: pick(set) } },
  };
}

/**
 * Disables (`on` true) or enables a creator, with the staff member's reason. A disabled creator
 * is hidden from the public creator list, page and search, and no release can be created for them
 * or moved to them; their releases and collectibles stay as they are (on sale, tradable). Asking
 * for the state the creator is already in is 1073 creatorStateSame (one conditional UPDATE: two
 * staff acting at once cannot both win).
 */
export async function setCreatorDisabled(trx: Q, id: number, on: boolean, reason: string, now: number): Promise<AuditEntry> {
  const row = await trx.selectFrom('creators').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  if (!row) throw new ApiError(Status.NOT_FOUND_ITEM, 'creatorNotFound', {}, 404);
  const r = await trx
    .updateTable('creators')
    .set({ disabled_at: on ? now : null, updated_at: now })
    .where('id', '=', id)
    .where('disabled_at', on ? 'is' : 'is not', null)
    .executeTakeFirst();
  if (changed(r) !== 1) throw new ApiError(Status.STAFF_STATE, 'creatorStateSame');
  return {
    action: on ? 'creator.disable' : 'creator.enable',
    targetType: 'creator',
    targetId: id,
    summary: { name: row.name, before: { disabled: !on }, after: { disabled: on }, reason },
  };
}

/** Gives (`verified` true) or takes back the verified mark (认证); the state it already has is 1073 creatorStateSame. */
export async function setCreatorVerified(trx: Q, id: number, verified: boolean, now: number): Promise<AuditEntry> {
  const row = await trx.selectFrom('creators').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  if (!row) throw new ApiError(Status.NOT_FOUND_ITEM, 'creatorNotFound', {}, 404);
  const r = await trx
    .updateTable('creators')
    .set({ verified_at: verified ? now : null, updated_at: now })
    .where('id', '=', id)
    .where('verified_at', verified ? 'is' : 'is not', null)
    .executeTakeFirst();
  if (changed(r) !== 1) throw new ApiError(Status.STAFF_STATE, 'creatorStateSame');
  return { action: 'creator.verify', targetType: 'creator', targetId: id, summary: { name: row.name, before: { verified: !verified }, after: { verified } } };
}

/** After a committed change: this process's release map (creator names, avatars) and search index see it at once. */
export function afterCreatorChange(ctx: AppContext) {
  invalidateProjectInfo(ctx);
  invalidateSearchIndex(ctx);
}
