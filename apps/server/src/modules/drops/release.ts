import { Status } from '@cfx/contract/envelope.ts';
import type { ProjectStatus } from '@cfx/contract/catalog.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { TimedCache } from '../../util/timed-cache.ts';
import { forgetDropSettings } from './settings.ts';

/** What a drop needs of a release, kept in memory for up to a second of the cache clock (ctx.monotonicNow; releases change rarely; a sale start is read by server time). */
export interface DropRelease {
  id: number;
  name: string;
  cover: string;
  priceFen: number;
  supply: number;
  saleStartAt: number;
  saleEndAt: number | null;
  tokenStart: number | null;
  tokenEnd: number | null;
  creatorUserId: number;
  /** The creator's account as an order shows its seller. */
  creatorAccountId: string;
  creatorNickname: string;
}

const MAX_AGE_MS = 1000;
const caches = new WeakMap<object, TimedCache<number, DropRelease | null>>();

export function dropRelease(ctx: AppContext, projectId: number): Promise<DropRelease | null> {
  let c = caches.get(ctx.db);
  if (!c) caches.set(ctx.db, (c = new TimedCache(MAX_AGE_MS, () => ctx.monotonicNow())));
  return c.get(projectId, () => loadRelease(ctx, projectId));
}

async function loadRelease(ctx: AppContext, projectId: number): Promise<DropRelease | null> {
  const r = await ctx.db.kysely
    .selectFrom('projects')
    .innerJoin('creators', 'creators.id', 'projects.creator_id')
    .innerJoin('users', 'users.id', 'creators.user_id')
    .select(['users.account_id', 'users.nickname', 'projects.id', 'projects.name', 'projects.cover', 'projects.price_fen', 'projects.supply', 'projects.sale_start_at', 'projects.sale_end_at', 'projects.token_start', 'projects.token_end', 'creators.user_id'])
    .where('projects.id', '=', projectId)
    .executeTakeFirst();
  const value: DropRelease | null = r
    ? {
        id: Number(r.id),
        name: r.name,
        cover: r.cover,
        priceFen: Number(r.price_fen),
        supply: Number(r.supply),
        saleStartAt: Number(r.sale_start_at),
        saleEndAt: r.sale_end_at === null ? null : Number(r.sale_end_at),
        tokenStart: r.token_start === null ? null : Number(r.token_start),
        tokenEnd: r.token_end === null ? null : Number(r.token_end),
        creatorUserId: Number(r.user_id),
        creatorAccountId: r.account_id,
        creatorNickname: r.nickname,
      }
    : null;
  return value;
}

/** Forget cached releases (a test or the dev route changed one). */
export function forgetDropReleases(ctx: AppContext) {
  caches.get(ctx.db)?.forget();
  forgetDropSettings(ctx);
}

/** The release's sale status at `now` from its window and the live stock (as the catalog derives it). */
export function saleStatus(r: Pick<DropRelease, 'saleStartAt' | 'saleEndAt'>, stock: { supply: number; taken: number }, now: number): ProjectStatus {
  if (now < r.saleStartAt) return 'upcoming';
  if (stock.taken >= stock.supply) return 'sold_out';
  if (r.saleEndAt !== null && now >= r.saleEndAt) return 'ended';
  return 'on_sale';
}

/** Refuses a purchase outside the sale window (server time) or of a release without a token range (not sold as a drop). */
export function checkOnSale(r: DropRelease, now: number) {
  if (r.tokenStart === null || r.tokenEnd === null || r.tokenEnd - r.tokenStart + 1 < r.supply) throw new ApiError(Status.DROP_NOT_ON_SALE, 'dropNotForSale');
  if (now < r.saleStartAt) throw new ApiError(Status.DROP_NOT_ON_SALE, 'dropNotStarted');
  if (r.saleEndAt !== null && now >= r.saleEndAt) throw new ApiError(Status.DROP_NOT_ON_SALE, 'dropEnded');
}
