import { z } from 'zod';
import { idParam, intLike, pageNum, pageSize, safeText } from './paging.ts';

/**
 * The creator studio (docs/api.md "Creator studio"): a creator drafts a release, submits it for
 * review, and staff approve it (the release is created) or reject it with a reason (the creator
 * edits and submits again). Money is integer fen, times epoch ms, the royalty per mille (0–100).
 *
 * States: draft → submitted → approved | rejected; a rejected draft can be edited and submitted
 * again; a submitted one can be withdrawn back to draft.
 */
export const StudioPaths = {
  /** {pageNum, pageSize} — my drafts (every state), newest first. */
  drafts: '/api/creator/v1/studio/drafts',
  /** {id} — one of my drafts. */
  draft: '/api/creator/v1/studio/draft',
  /** {…fields} — a new draft (every field optional until submit). */
  create: '/api/creator/v1/studio/create',
  /** {id, …fields} — edit a draft in state draft or rejected. */
  update: '/api/creator/v1/studio/update',
  /** {id} — submit for review (every field is checked). */
  submit: '/api/creator/v1/studio/submit',
  /** {id} — take a submitted draft back to draft. */
  withdraw: '/api/creator/v1/studio/withdraw',
  /** {} — my releases: state, units sold, holders, income. */
  stats: '/api/creator/v1/studio/stats',
} as const;

/** The console's review paths are AdminPaths.releaseReviewsList / releaseReviewApprove / releaseReviewReject (catalog.edit). */

export const DRAFT_STATES = ['draft', 'submitted', 'approved', 'rejected'] as const;
export type DraftState = (typeof DRAFT_STATES)[number];
export const MEDIA_KINDS = ['image', 'video', 'model'] as const;

/** The rules a draft must meet to be submitted (the server checks them; the form shows them). */
export const STUDIO_RULES = {
  titleMax: 40,
  storyMax: 20_000,
  supplyMin: 1,
  supplyMax: 100_000,
  priceMinFen: 1,
  /** ￥1,000,000.00, the market's upper bound. */
  priceMaxFen: 100_000_000,
  /** The sale must start at least this far ahead when submitted. */
  startLeadMs: 60 * 60 * 1000,
  perIdentityMax: 1000,
  holdingDaysMax: 365,
  royaltyMaxPermille: 100,
  reasonMax: 500,
} as const;

const int = (min: number, max: number) => intLike.pipe(z.number().int().min(min).max(max));
/** Loose bounds of the body (types and sizes); the range rules and their messages are the server's. */
export const draftFields = {
  title: safeText(200).nullish(),
  storyHtml: safeText(60_000).nullish(),
  coverKey: safeText(200).nullish(),
  mediaKind: z.enum(MEDIA_KINDS).nullish(),
  mediaKey: safeText(200).nullish(),
  supply: int(-1e9, 1e9).nullish(),
  priceFen: int(-1e12, 1e12).nullish(),
  saleStartAt: int(0, 8_640_000_000_000).nullish(),
  perIdentityLimit: int(-1e9, 1e9).nullish(),
  holdingDays: int(-1e9, 1e9).nullish(),
  royaltyPermille: int(-1e9, 1e9).nullish(),
};
export const draftCreateBody = z.object(draftFields);
export const draftUpdateBody = z.object({ id: idParam, ...draftFields });
export type DraftInput = z.infer<typeof draftCreateBody>;
export const draftIdBody = z.object({ id: idParam });
export const draftsListBody = z.object({ pageNum, pageSize });
export const reviewListBody = z.object({ state: z.enum(DRAFT_STATES).nullish(), pageNum, pageSize });
export const reviewRejectBody = z.object({ id: idParam, reason: safeText(2000) });

export interface ReleaseDraft {
  id: number;
  state: DraftState;
  title: string;
  storyHtml: string;
  coverKey: string | null;
  /** The cover's public URL (null without one). */
  cover: string | null;
  mediaKind: (typeof MEDIA_KINDS)[number] | null;
  mediaKey: string | null;
  supply: number | null;
  priceFen: number | null;
  saleStartAt: number | null;
  perIdentityLimit: number | null;
  holdingDays: number | null;
  royaltyPermille: number | null;
  reviewReason: string | null;
  projectId: number | null;
  createdAt: number;
  updatedAt: number;
  submittedAt: number | null;
  reviewedAt: number | null;
}
/** A draft as staff see it: with its creator. */
export interface ReviewDraft extends ReleaseDraft {
  creatorId: number;
  creatorName: string;
  creatorAccountId: string;
}

/** One of the creator's releases with its sales and the creator's income from it (fen). */
export interface StudioRelease {
  projectId: number;
  name: string;
  cover: string;
  status: 'upcoming' | 'on_sale' | 'sold_out' | 'ended';
  supply: number;
  sold: number;
  holders: number;
  priceFen: number;
  saleStartAt: number;
  royaltyPermille: number | null;
  /** Primary-sale income credited to the creator's balance. */
  primaryIncomeFen: number;
  /** Resale royalties credited to the creator's balance. */
  royaltyIncomeFen: number;
}
export interface StudioStats {
  releases: StudioRelease[];
  totals: { sold: number; primaryIncomeFen: number; royaltyIncomeFen: number };
  /** The creator's available balance (withdrawn through the money-out page). */
  balanceFen: number;
}

/** A draft's fields in the terms the form shows (null = not filled in). */
export type DraftForm = Omit<ReleaseDraft, 'id' | 'state' | 'cover' | 'reviewReason' | 'projectId' | 'createdAt' | 'updatedAt' | 'submittedAt' | 'reviewedAt'>;

/** Which rule a draft breaks for submission (the server's message key of the first), or null when it may be submitted. */
export function draftProblem(d: DraftForm, now: number): StudioProblem | null {
  const R = STUDIO_RULES;
  const title = (d.title ?? '').trim();
  if (!title || [...title].length > R.titleMax || /[\r\n]/.test(title)) return 'studioBadTitle';
  if (!d.coverKey) return 'studioNoCover';
  if (d.supply === null || !Number.isSafeInteger(d.supply) || d.supply < R.supplyMin || d.supply > R.supplyMax) return 'studioBadSupply';
  if (d.priceFen === null || !Number.isSafeInteger(d.priceFen) || d.priceFen < R.priceMinFen || d.priceFen > R.priceMaxFen) return 'studioBadPrice';
  if (d.saleStartAt === null || d.saleStartAt < now + R.startLeadMs) return 'studioBadStart';
  if (d.perIdentityLimit === null || d.perIdentityLimit < 1 || d.perIdentityLimit > R.perIdentityMax) return 'studioBadLimit';
  if (d.holdingDays !== null && (d.holdingDays < 0 || d.holdingDays > R.holdingDaysMax)) return 'studioBadHolding';
  if (d.royaltyPermille === null || d.royaltyPermille < 0 || d.royaltyPermille > R.royaltyMaxPermille) return 'studioBadRoyalty';
  return null;
}
export type StudioProblem = 'studioBadTitle' | 'studioNoCover' | 'studioBadSupply' | 'studioBadPrice' | 'studioBadStart' | 'studioBadLimit' | 'studioBadHolding' | 'studioBadRoyalty';
