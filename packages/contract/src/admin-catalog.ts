import { z } from 'zod';
import { idParam, intLike, pageNum, pageSize } from './paging.ts';
import { dropPhaseKind, lotteryInput, type PhaseView, type LotteryView } from './drop-phases.ts';
import type { ProjectStatus } from './catalog.ts';
import { BANNER_LINK_TYPES, BANNER_POSITIONS, NEWS_STATES, RECOMMEND_ITEM_TYPES, type BannerLinkTypeValue, type BannerPositionValue, type NewsState, type RecommendItemTypeValue } from './admin-catalog-rules.ts';

/**
 * Request bodies of the console's catalogue and content editors (CatalogAdminPaths,
 * docs/admin.md "Catalogue and content") and the shapes they answer. Bodies bound sizes and
 * types; the rules with their messages (what may change after a sale started, windows, odds …)
 * are applied by the server. Money is integer fen, times epoch ms.
 */
const text = (max: number) => z.string().max(max);
const optText = (max: number) => z.string().max(max).nullish().transform((v) => (v ?? '').trim());
const int = (min: number, max: number) => intLike.pipe(z.number().int().min(min).max(max));
const time = intLike.pipe(z.number().int().min(0).max(8_640_000_000_000));
const paging = { pageNum, pageSize };

/* ───────────── releases ───────────── */

export const releasesListBody = z.object({
  q: optText(40),
  status: z.enum(['upcoming', 'on_sale', 'sold_out', 'ended']).nullish(),
  ...paging,
});

/** Every field of the release form. Numbers are checked against RELEASE_LIMITS by the server. */
export const releaseFields = {
  name: text(200),
  creatorId: idParam,
  cover: text(1000),
  category: text(100),
  descriptionHtml: text(100_000),
  supply: int(0, 100_000_000),
  priceFen: int(0, 10_000_000_000),
  saleStartAt: time,
  saleEndAt: time.nullable(),
  holdingDays: int(0, 100_000),
  perIdentityLimit: int(0, 100_000),
  maxPerOrder: int(0, 100_000),
  commissionPermille: int(0, 100_000),
  /** The creator royalty on resales, per mille (0–100 = 0–10 %); null / omitted on create = the platform default. */
  royaltyPermille: int(0, 100_000).nullish(),
};
export const releaseCreateBody = z.object(releaseFields);
export type ReleaseCreateBody = z.infer<typeof releaseCreateBody>;
/** An edit: the release and the fields to change (omitted = unchanged). */
export const releaseUpdateBody = z.object({ id: idParam, ...releaseFields }).partial().required({ id: true });
export type ReleaseUpdateBody = z.infer<typeof releaseUpdateBody>;

export const releaseIdBody = z.object({ id: idParam });
export const projectIdBody = z.object({ projectId: idParam });

/** The phases in order; an empty list removes them (sold as one public phase in the sale window). */
export const phasesBody = z.object({
  projectId: idParam,
  phases: z
    .array(
      z.object({
        kind: dropPhaseKind,
        startAt: time.nullish(),
        endAt: time.nullish(),
        priceFen: int(0, 10_000_000_000).nullish(),
      }),
    )
    .max(10),
  lottery: lotteryInput.nullish(),
});
export type PhasesBody = z.infer<typeof phasesBody>;

/** A whitelist file as text (the browser reads the CSV); up to 4 MB (≈ 250,000 lines). */
export const WHITELIST_CSV_MAX = 4 * 1024 * 1024;
export const whitelistCheckBody = z.object({ projectId: idParam, csv: z.string().max(WHITELIST_CSV_MAX), replace: z.boolean().nullish() });
export const whitelistImportBody = whitelistCheckBody;
export const whitelistListBody = z.object({ projectId: idParam, q: optText(32), ...paging });

export const boxBody = z.object({
  projectId: idParam,
  kinds: z
    .array(z.object({ name: text(100), rarity: text(40), count: int(0, 100_000_000), image: text(1000).nullish() }))
    .min(1)
    .max(200),
  /** The reveal epoch, this many epochs after the chain's newest (default 1): set once, when the release becomes a box. */
  revealInEpochs: int(1, 10_000_000).nullish(),
});
export type BoxBody = z.infer<typeof boxBody>;

export const composeListBody = z.object({ ...paging });
export const composeSaveBody = z.object({
  id: idParam.nullish(),
  name: text(200),
  description: text(2000).nullish(),
  ingredients: z.array(z.object({ projectId: idParam, count: int(0, 100_000) })).min(1).max(50),
  maxTimes: int(0, 100_000_000),
  startAt: time,
  endAt: time.nullable(),
  resultName: text(200).nullish(),
  resultImage: text(1000).nullish(),
});
export type ComposeSaveBody = z.infer<typeof composeSaveBody>;

/* ───────────── content ───────────── */

export const targetsBody = z.object({ type: z.enum(RECOMMEND_ITEM_TYPES), q: optText(40) });

export const newsListBody = z.object({ q: optText(40), category: optText(40), state: z.enum(NEWS_STATES).nullish(), ...paging });
export const newsSaveBody = z.object({
  id: idParam.nullish(),
  title: text(400),
  category: text(100),
  cover: text(1000),
  summary: text(1000).nullish(),
  contentHtml: text(400_000),
  author: text(200).nullish(),
  isHot: z.boolean().nullish(),
  isPlace: z.boolean().nullish(),
  placeSort: int(-1_000_000, 1_000_000).nullish(),
  /** When it shows (a future time schedules it); null = now at publishing. */
  publishedAt: time.nullish(),
  /** Saved as a draft (not shown) rather than published. */
  draft: z.boolean().nullish(),
});
export type NewsSaveBody = z.infer<typeof newsSaveBody>;
export const newsPublishBody = z.object({ id: idParam, publish: z.boolean() });
export const newsPreviewBody = z.object({ contentHtml: text(400_000) });
export const idBody = z.object({ id: idParam });

export const bannersListBody = z.object({ position: z.enum(BANNER_POSITIONS).nullish() });
export const bannerSaveBody = z.object({
  id: idParam.nullish(),
  position: z.enum(BANNER_POSITIONS),
  title: text(200),
  subtitle: text(400).nullish(),
  image: text(1000),
  linkType: z.enum(BANNER_LINK_TYPES),
  /** An id for project / goods / news / creator, a site path or http(s) URL for `url`. */
  linkTarget: text(1000),
  sort: int(-1_000_000, 1_000_000).nullish(),
  active: z.boolean().nullish(),
  startAt: time.nullish(),
  endAt: time.nullish(),
});
export type BannerSaveBody = z.infer<typeof bannerSaveBody>;

export const recommendSaveBody = z.object({
  id: idParam.nullish(),
  code: text(100),
  title: text(200),
  sort: int(-1_000_000, 1_000_000).nullish(),
  /** In display order. */
  items: z.array(z.object({ type: z.enum(RECOMMEND_ITEM_TYPES), id: idParam })).max(200),
});
export type RecommendSaveBody = z.infer<typeof recommendSaveBody>;

/* ───────────── answers ───────────── */

export interface ImageUpload {
  key: string;
  url: string;
  name: string;
  size: number;
  type: string;
}

export interface AdminStock {
  supply: number;
  /** Reserved by unpaid orders + paid. */
  taken: number;
  paid: number;
  remaining: number;
}

export interface AdminReleaseRow {
  id: number;
  name: string;
  cover: string;
  category: string;
  creatorName: string;
  priceFen: number;
  saleStartAt: number;
  saleEndAt: number | null;
  status: ProjectStatus;
  stock: AdminStock;
  /** Kinds of its phases in order (empty: one public phase in the sale window). */
  phases: string[];
  /** The phase open now, if any. */
  currentPhase: string | null;
  /** A blind-box release / items of one / the result release of a compose rule. */
  role: 'release' | 'box' | 'box_items' | 'compose_result';
  createdAt: number;
}

/** What may still change, by the server's rules (the form disables the rest and says why). */
export interface ReleaseLocks {
  /** The sale has started: a phase or the window began, or units were taken. */
  started: boolean;
  /** Any order (any status) exists: price, commission and creator are frozen. */
  hasOrders: boolean;
  priceLocked: boolean;
  /** A resale (market or bid order) of one of its collectibles exists: the royalty is frozen. */
  royaltyLocked: boolean;
  creatorLocked: boolean;
  startLocked: boolean;
  /** Supply: the smallest value allowed, and whether it may only grow. */
  supplyMin: number;
  supplyOnlyGrow: boolean;
  /** The token ids right after the range are free, so the supply can grow in place. */
  supplyCanGrow: boolean;
  supplyLocked: boolean;
  holdingOnlyDown: boolean;
  phasesLocked: boolean;
  boxLocked: boolean;
}

export interface AdminReleaseDetail {
  id: number;
  name: string;
  creatorId: number;
  creatorName: string;
  cover: string;
  category: string;
  descriptionHtml: string;
  supply: number;
  priceFen: number;
  saleStartAt: number;
  saleEndAt: number | null;
  holdingDays: number;
  perIdentityLimit: number;
  maxPerOrder: number;
  commissionPermille: number;
  /** The release's own royalty per mille (null: the platform default, `royaltyEffectivePermille`). */
  royaltyPermille: number | null;
  /** What resales pay now: the own royalty or the default. */
  royaltyEffectivePermille: number;
  tokenStart: number | null;
  tokenEnd: number | null;
  role: AdminReleaseRow['role'];
  status: ProjectStatus;
  stock: AdminStock;
  orders: number;
  locks: ReleaseLocks;
  phases: PhaseView[];
  /** The stored phase rows (what the editor edits: a rights phase has no window of its own). */
  phaseInputs: { kind: string; startAt: number | null; endAt: number | null; priceFen: number }[];
  lottery: (LotteryView & { proofUrl: string }) | null;
  whitelist: { entries: number };
  box: AdminBox | null;
  serverTime: number;
}

export interface AdminBox {
  itemProjectId: number;
  kinds: { name: string; rarity: string; count: number; image: string }[];
  commitment: string;
  algorithm: string;
  revealEpoch: number;
  status: 'committed' | 'revealed';
  revealedAt: number | null;
  blockHash: string | null;
  proofUrl: string;
}

export interface ReleaseOptions {
  creators: { id: number; name: string; accountId: string }[];
  categories: string[];
  defaults: { perIdentityLimit: number; maxPerOrder: number; commissionPermille: number; royaltyPermille: number };
}

export interface EpochInfo {
  /** The chain's newest epoch (null without a chain). */
  epoch: number | null;
  /** Measured from block timestamps (DEFAULT_MS_PER_EPOCH when it cannot be). */
  msPerEpoch: number;
  measured: boolean;
  serverTime: number;
}

export interface WhitelistReport {
  ok: boolean;
  entries: number;
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  /** Bad lines with their numbers and the reason in the caller's language. */
  errors: { line: number; message: string }[];
  /** Entries of the release after the import (or now, for a check). */
  total: number;
}

export interface WhitelistEntry {
  userId: number;
  accountId: string;
  mobileMasked: string;
  nickname: string;
  quota: number;
  verified: boolean;
  updatedAt: number;
}

export interface AdminComposeRule {
  id: number;
  name: string;
  description: string;
  ingredients: { projectId: number; projectName: string; count: number }[];
  resultProjectId: number;
  resultName: string;
  resultImage: string;
  resultSupply: number;
  startAt: number;
  endAt: number | null;
  maxTimes: number;
  usedTimes: number;
  /** Compose records ever made (ingredients and result are frozen from the first). */
  records: number;
  status: 'upcoming' | 'active' | 'ended' | 'sold_out';
}

export interface AdminNewsRow {
  id: number;
  title: string;
  category: string;
  cover: string;
  summary: string;
  author: string;
  isHot: boolean;
  isPlace: boolean;
  placeSort: number;
  views: number;
  state: NewsState;
  publishedAt: number;
  updatedAt: number | null;
}
export interface AdminNewsDetail extends AdminNewsRow {
  contentHtml: string;
}

export interface AdminBanner {
  id: number;
  position: BannerPositionValue;
  title: string;
  subtitle: string;
  image: string;
  linkType: BannerLinkTypeValue;
  linkTarget: string;
  /** What the link shows (a release / collectible / news / creator name); '' for a URL. */
  linkLabel: string;
  sort: number;
  active: boolean;
  startAt: number | null;
  endAt: number | null;
  /** Shown on the site now (active and inside its window). */
  live: boolean;
}

export interface AdminRecommendList {
  id: number;
  code: string;
  title: string;
  sort: number;
  items: { type: RecommendItemTypeValue; id: number; label: string; missing: boolean }[];
}

export interface ContentTarget {
  type: RecommendItemTypeValue;
  id: number;
  label: string;
  sub: string;
}
