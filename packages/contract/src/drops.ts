import { z } from 'zod';
import { envelope } from './envelope.ts';
import { projectStatus } from './catalog.ts';
import { dropPhaseKind } from './drop-phases.ts';
import { idParam, intLike } from './paging.ts';

/**
 * The primary sale of a release ("drop", docs/drops.md). Buying is
 * POST /payment/nftOrder/V1/createOrder {projectId, count} (a `drop` order, market.ts); this file
 * holds the per-identity purchase limit call and the dev-mode test release.
 */

/** GET /official/stint/nowStint/?projectId= (needs a login). */
export const nowStintQuery = z.object({ projectId: idParam });
export const nowStint = z.object({
  projectId: z.number().int(),
  /** Units one real-name identity (all accounts of one ID number together) may buy of this release. */
  limit: z.number().int(),
  /** Units this identity holds of it: reserved by unpaid orders plus paid. */
  bought: z.number().int(),
  /** limit − bought (0 without a real-name verification: the gate refuses buying anyway). */
  remaining: z.number().int(),
  /** Most units one order may take. */
  maxPerOrder: z.number().int(),
  /** Whether the caller has a real-name identity (the limit is counted per identity). */
  verified: z.boolean(),
  /** Live stock (at most about a second old). */
  supply: z.number().int(),
  sold: z.number().int(),
  stockRemaining: z.number().int(),
  status: projectStatus,
  saleStartAt: z.number().int(),
  saleEndAt: z.number().int().nullable(),
  serverTime: z.number().int(),
  /**
   * The sale phase open now (drop-phases.ts), null for a release without phases or between phases.
   * limit / bought / remaining are the quota of that phase: the whitelist entry in whitelist and
   * claim phases, the win quota in lottery_rights, else the release limit.
   */
  phaseKind: dropPhaseKind.nullable(),
});
export type NowStint = z.infer<typeof nowStint>;

/** POST /dev/drop-release (DEV_MODE only, hidden from the docs): a new release on sale, for trying the drop and for browser tests. */
export const devDropReleaseBody = z.object({
  supply: intLike.pipe(z.number().int().min(1).max(100_000)).nullish(),
  priceFen: intLike.pipe(z.number().int().min(1).max(100_000_000)).nullish(),
  /** Sale start relative to now (ms; negative = already started). Default: started a minute ago. */
  startInMs: intLike.pipe(z.number().int().min(-365 * 86_400_000).max(365 * 86_400_000)).nullish(),
  perIdentityLimit: intLike.pipe(z.number().int().min(1).max(1000)).nullish(),
  maxPerOrder: intLike.pipe(z.number().int().min(1).max(1000)).nullish(),
  /** The creator royalty on resales, per mille (0–100); omitted = the platform default. */
  royaltyPermille: intLike.pipe(z.number().int().min(0).max(100)).nullish(),
});
export const devDropRelease = z.object({ projectId: z.number().int(), tokenStart: z.string(), tokenEnd: z.string() });

export const nowStintResponse = envelope(nowStint.nullable());
export const devDropReleaseResponse = envelope(devDropRelease.nullable());
