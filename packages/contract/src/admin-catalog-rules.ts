/**
 * The console's catalogue and content editors (issue #11, docs/admin.md "Catalogue and content"):
 * their paths under ADMIN_BASE (spread into AdminPaths, so the permission and audit tests walk
 * them), the limits the server checks and the web forms show, and the value sets. No zod here:
 * the web imports these values (the request schemas are in admin-catalog.ts).
 */

export const CatalogAdminPaths = {
  /* releases (catalog.edit) */
  releasesList: '/releases/list',
  releaseDetail: '/releases/detail',
  releaseOptions: '/releases/options',
  releaseCreate: '/releases/create',
  releaseUpdate: '/releases/update',
  releaseUpload: '/releases/upload',
  releasePhases: '/releases/phases',
  releaseEpoch: '/releases/epoch',
  whitelistCheck: '/releases/whitelist/check',
  whitelistImport: '/releases/whitelist/import',
  whitelistList: '/releases/whitelist/list',
  releaseBox: '/releases/box',
  composeList: '/compose/list',
  composeSave: '/compose/save',

  /* content (content.edit) */
  contentUpload: '/content/upload',
  contentTargets: '/content/targets',
  newsList: '/news/list',
  newsDetail: '/news/detail',
  newsSave: '/news/save',
  newsPublish: '/news/publish',
  newsDelete: '/news/delete',
  newsPreview: '/news/preview',
  bannersList: '/banners/list',
  bannerSave: '/banners/save',
  bannerDelete: '/banners/delete',
  recommendList: '/recommend/list',
  recommendSave: '/recommend/save',
  recommendDelete: '/recommend/delete',
} as const;

/** What a release form may hold (fen, days, per-mille). */
export const RELEASE_LIMITS = {
  nameMax: 40,
  categoryMax: 32,
  /** Sanitised description HTML. */
  descriptionMax: 20_000,
  supplyMax: 1_000_000,
  /** ￥1,000,000.00 */
  priceMaxFen: 100_000_000,
  holdingDaysMax: 365,
  perIdentityMax: 1000,
  maxPerOrderMax: 1000,
  commissionMaxPermille: 1000,
  /** The creator royalty on resales: 0–10 %. */
  royaltyMaxPermille: 100,
} as const;

/**
 * The lottery's draw epoch is suggested as the chain's newest epoch + the epochs until sign-up
 * ends + this margin, so that the seed block cannot exist while entries come in (sign-up would
 * otherwise close early). The web shows the epoch's estimated date with the measured epoch rate.
 */
export const LOTTERY_EPOCH_MARGIN = 120;
/** The epoch interval assumed when the chain cannot be measured (Conflux: about one epoch a second). */
export const DEFAULT_MS_PER_EPOCH = 1000;

export const BOX_LIMITS = { kindsMax: 50, kindNameMax: 20, rarityMax: 10 } as const;

export const COMPOSE_LIMITS = { nameMax: 40, descriptionMax: 500, ingredientsMax: 10, countMax: 1000, maxTimesMax: 1_000_000 } as const;

export const NEWS_LIMITS = { titleMax: 80, categoryMax: 20, summaryMax: 200, authorMax: 40, contentMax: 100_000 } as const;
/** News states in the console: published (visible from published_at), scheduled (published, time ahead), draft (never shown). */
export const NEWS_STATES = ['published', 'scheduled', 'draft'] as const;
export type NewsState = (typeof NEWS_STATES)[number];

export const BANNER_POSITIONS = ['home', 'projects', 'market', 'news'] as const;
export type BannerPositionValue = (typeof BANNER_POSITIONS)[number];
export const BANNER_LINK_TYPES = ['project', 'goods', 'news', 'creator', 'url'] as const;
export type BannerLinkTypeValue = (typeof BANNER_LINK_TYPES)[number];
export const BANNER_LIMITS = { titleMax: 40, subtitleMax: 80, urlMax: 500 } as const;

export const RECOMMEND_ITEM_TYPES = ['project', 'goods', 'creator', 'news'] as const;
export type RecommendItemTypeValue = (typeof RECOMMEND_ITEM_TYPES)[number];
/** Codes the home page reads (home.tsx); other codes are served by getRecommendList too. */
export const RECOMMEND_HOME_CODES = ['home_recommend', 'home_hot', 'home_creators'] as const;
export const RECOMMEND_LIMITS = { codeMax: 32, titleMax: 40, itemsMax: 50 } as const;
export const RECOMMEND_CODE_RE = /^[a-z][a-z0-9_]{1,31}$/;
