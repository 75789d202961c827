import { z } from 'zod';
import { envelope } from './envelope.ts';
import { idParam, intLike, optionalId, page, paging, safeText } from './paging.ts';

/**
 * Releases (projects), collectibles (goods) and creators —
 * "Goods and market", "Creators". Money is integer fen (`…Fen`), times are epoch milliseconds
 * (`…At`), image fields are URLs (generated artwork under /official/image/, append `&w=` for a
 * thumbnail).
 */

/** Derived from the sale times and the sold count: before the start, sold out, after the end, else on sale. */
export const projectStatus = z.enum(['upcoming', 'on_sale', 'sold_out', 'ended']);
export type ProjectStatus = z.infer<typeof projectStatus>;
/** A collectible is held by its owner, listed on the consignment market, or burned (a blind box opened, a fragment composed: shown on its own page only). */
export const goodsStatus = z.enum(['held', 'on_sale', 'burned']);
export type GoodsStatus = z.infer<typeof goodsStatus>;
/** Minted on chain, waiting for the mint job, or 'void': a drop unit refunded because it could never be minted (burned in our records, never on chain). */
export const chainStatus = z.enum(['pending', 'minted', 'void']);

export const creatorBrief = z.object({ id: z.number().int(), accountId: z.string(), name: z.string(), avatar: z.string() });
export type CreatorBrief = z.infer<typeof creatorBrief>;

/** Kinds of sale phases (docs/drops.md "Sale phases"; drop-phases.ts re-exports them as DROP_PHASE_KINDS). */
export const SALE_PHASE_KINDS = ['whitelist', 'claim', 'lottery_signup', 'lottery_rights', 'public'] as const;
/**
 * A sale phase's window in server time, as release cards carry it so a page names the phase open now:
 * `startAt` null = not known yet, `endAt` null = open-ended (a lottery's rights end null until drawn).
 */
export const saleWindow = z.object({ kind: z.enum(SALE_PHASE_KINDS), startAt: z.number().int().nullable(), endAt: z.number().int().nullable() });
export type SaleWindow = z.infer<typeof saleWindow>;

export const projectCard = z.object({
  id: z.number().int(),
  name: z.string(),
  cover: z.string(),
  category: z.string(),
  priceFen: z.number().int(),
  supply: z.number().int(),
  sold: z.number().int(),
  remaining: z.number().int(),
  status: projectStatus,
  saleStartAt: z.number().int(),
  saleEndAt: z.number().int().nullable(),
  /** Days a bought collectible must be held before it can be resold (0: none). */
  holdingDays: z.number().int(),
  creator: creatorBrief,
  /** The release's sale phases in order (empty: one public sale in its window). */
  phases: z.array(saleWindow),
});
export type ProjectCard = z.infer<typeof projectCard>;

/**
 * A release's artwork media when it is a video or 3D model (migration 0029: projects.media_kind /
 * media_key); absent or null = the cover image only. The cover is the poster frame.
 */
export const releaseMedia = z.object({ kind: z.enum(['image', 'video', 'model']), url: z.string() });
export type ReleaseMedia = z.infer<typeof releaseMedia>;

export const projectDetail = projectCard.extend({
  /** The artwork video or 3D model (MediaView); null = the cover image. */
  media: releaseMedia.nullable().optional(),
  /** Sanitised HTML (allow-listed tags only). */
  descriptionHtml: z.string(),
  contractAddress: z.string().nullable(),
  /** First and last token id of the release on the asset contract (decimal strings). */
  tokenStart: z.string().nullable(),
  tokenEnd: z.string().nullable(),
  serverTime: z.number().int(),
});
export type ProjectDetail = z.infer<typeof projectDetail>;

/** Live sale state of a release (the dropping page polls it for its countdown). */
export const projectSale = z.object({
  id: z.number().int(),
  status: projectStatus,
  priceFen: z.number().int(),
  supply: z.number().int(),
  sold: z.number().int(),
  remaining: z.number().int(),
  saleStartAt: z.number().int(),
  saleEndAt: z.number().int().nullable(),
  serverTime: z.number().int(),
  /** Milliseconds until the sale starts (0 once started). */
  startsInMs: z.number().int(),
  /** Milliseconds until the sale ends; null without an end time; 0 once ended. */
  endsInMs: z.number().int().nullable(),
});

export const projectTitle = z.object({
  id: z.number().int(),
  name: z.string(),
  cover: z.string(),
  category: z.string(),
  status: projectStatus,
  creator: creatorBrief,
});
export const projectOption = z.object({ id: z.number().int(), name: z.string(), cover: z.string(), category: z.string(), status: projectStatus });

export const projectSort = z.enum(['default', 'newest', 'startAsc', 'priceAsc', 'priceDesc']);
export const projectListBody = z.object({
  ...paging,
  /** One status, or omitted/'all' for every status. */
  status: z.union([projectStatus, z.literal('all')]).nullish(),
  category: safeText(32).nullish(),
  creatorId: optionalId,
  /** default: on sale, then upcoming (soonest first), then sold out / ended (newest first). */
  sort: projectSort.nullish(),
});
export const idBody = z.object({ id: idParam });
export const idQuery = z.object({ id: idParam });
export const creatorProjectsBody = z.object({
  ...paging,
  accountId: safeText(32),
  status: z.union([projectStatus, z.literal('all')]).nullish(),
});

export const attribute = z.object({ trait: z.string(), value: z.string() });
export const ownerBrief = z.object({ accountId: z.string(), nickname: z.string(), avatar: z.string() });

export const goodsCard = z.object({
  id: z.number().int(),
  name: z.string(),
  image: z.string(),
  /** Number within its release, 1…supply. */
  serial: z.number().int(),
  supply: z.number().int(),
  projectId: z.number().int(),
  projectName: z.string(),
  creatorName: z.string(),
  status: goodsStatus,
  /** Asking price while on sale, else null. */
  salePriceFen: z.number().int().nullable(),
  /** Price of the last trade (the primary sale price at first). */
  lastPriceFen: z.number().int().nullable(),
  chainStatus,
});
export type GoodsCard = z.infer<typeof goodsCard>;

export const goodsDetail = goodsCard.extend({
  /** The release's artwork video or 3D model (MediaView); null = the image. */
  media: releaseMedia.nullable().optional(),
  tokenId: z.string().nullable(),
  contract: z.string().nullable(),
  attributes: z.array(attribute),
  owner: ownerBrief,
  creator: creatorBrief,
  project: z.object({ id: z.number().int(), name: z.string(), cover: z.string(), priceFen: z.number().int(), status: projectStatus }),
  holdingDays: z.number().int(),
  /** When the owner may resell it (acquired + holding period). */
  transferableAt: z.number().int(),
  acquiredAt: z.number().int(),
  listedAt: z.number().int().nullable(),
  mintedAt: z.number().int().nullable(),
  createdAt: z.number().int(),
  serverTime: z.number().int(),
});
export type GoodsDetail = z.infer<typeof goodsDetail>;

export const goodsSort = z.enum(['default', 'newest', 'priceAsc', 'priceDesc', 'serialAsc']);
export const goodsListBody = z.object({
  ...paging,
  projectId: optionalId,
  /** Default 'on_sale' (the consignment market); 'all' lists every collectible. */
  status: z.enum(['on_sale', 'held', 'all']).nullish(),
  category: safeText(32).nullish(),
  minPriceFen: intLike.pipe(z.number().int().min(0)).nullish(),
  maxPriceFen: intLike.pipe(z.number().int().min(0)).nullish(),
  /** default: newest listing first (on sale) or newest first (otherwise). */
  sort: goodsSort.nullish(),
});

export const pricePoint = z.object({ at: z.number().int(), priceFen: z.number().int() });
export const historyPriceQuery = z.object({ id: idParam, limit: intLike.pipe(z.number().int().min(1)).transform((n) => Math.min(n, 500)).nullish() });

/** open: a blind box opened (burned); burn: a fragment burned by a compose; compose: the result minted; gift: 转赠 to another user; shift: moved to another own address. */
export const historyActionKind = z.enum(['mint', 'list', 'delist', 'sale', 'transfer', 'open', 'burn', 'compose', 'gift', 'shift']);
export const historyAction = z.object({
  action: historyActionKind,
  from: ownerBrief.nullable(),
  to: ownerBrief.nullable(),
  priceFen: z.number().int().nullable(),
  txHash: z.string().nullable(),
  at: z.number().int(),
});
export const historyActionQuery = z.object({ id: idParam, ...paging });

export const commonInfo = z.object({
  serverTime: z.number().int(),
  chainId: z.number().int(),
  explorerUrl: z.string(),
  /** Market commission on free-market sales, per mille of the sale price. */
  commissionPermille: z.number().int(),
  currencySymbol: z.string(),
  pageSizeMax: z.number().int(),
  searchMax: z.number().int(),
});

/** Header of the personal asset list: the signed-in user's collection summary. */
export const listHead = z.object({
  total: z.number().int(),
  held: z.number().int(),
  onSale: z.number().int(),
  /** Number of different releases the collection spans. */
  series: z.number().int(),
  /** Sum of last trade prices (an estimate of the collection's value). */
  valuationFen: z.number().int(),
});

export const option = z.object({ value: z.string(), label: z.string() });
export const filterMeta = z.object({
  categories: z.array(option),
  projects: z.array(z.object({ id: z.number().int(), name: z.string() })),
  statuses: z.array(option),
  sorts: z.array(option),
  priceRanges: z.array(z.object({ label: z.string(), minFen: z.number().int(), maxFen: z.number().int().nullable() })),
});

export const mediaLink = z.object({ type: z.string(), label: z.string(), url: z.string() });
export const creatorCard = creatorBrief.extend({
  banner: z.string(),
  intro: z.string(),
  projectCount: z.number().int(),
  /** The platform's verified mark (认证), given by staff in the console. */
  verified: z.boolean(),
});
export type CreatorCard = z.infer<typeof creatorCard>;
export const creatorDetail = creatorCard.extend({
  mediaLinks: z.array(mediaLink),
  goodsCount: z.number().int(),
  holderCount: z.number().int(),
  createdAt: z.number().int(),
  /** Followers (kept in creator_stats, docs/api.md "Follow and creators"). */
  followerCount: z.number().int(),
  /** Moments not deleted. */
  momentCount: z.number().int(),
  /** Whether the signed-in caller follows this creator (false without a token). */
  following: z.boolean(),
});
export const creatorQueryBody = z.object({ accountId: safeText(32).nullish(), id: optionalId });
export const creatorListBody = z.object({ ...paging });

export const projectPageResponse = envelope(page(projectCard).nullable());
export const projectDetailResponse = envelope(projectDetail.nullable());
export const projectSaleResponse = envelope(projectSale.nullable());
export const projectTitleResponse = envelope(projectTitle.nullable());
export const projectOptionsResponse = envelope(z.array(projectOption).nullable());
export const goodsPageResponse = envelope(page(goodsCard).nullable());
export const goodsDetailResponse = envelope(goodsDetail.nullable());
export const pricePointsResponse = envelope(z.array(pricePoint).nullable());
export const historyActionsResponse = envelope(page(historyAction).nullable());
export const commonInfoResponse = envelope(commonInfo.nullable());
export const listHeadResponse = envelope(listHead.nullable());
export const filterMetaResponse = envelope(filterMeta.nullable());
export const creatorDetailResponse = envelope(creatorDetail.nullable());
export const creatorPageResponse = envelope(page(creatorCard).nullable());
