import { z } from 'zod';
import { envelope } from './envelope.ts';
import { projectStatus, SALE_PHASE_KINDS } from './catalog.ts';
import { intLike, idParam, optionalId } from './paging.ts';

/**
 * Sale phases, whitelists, the free claim and the fair-drop lottery of a release (issue #10,
 * docs/drops.md "Sale phases", "Whitelist", "Free claim", "Lottery"). Paths: MintPaths and
 * LotteryPaths in routes.ts. Buying in a priority phase is createOrder {projectId, count} as in the
 * public phase (market.ts); the free claim is nftmint.
 */

/** whitelist: priority purchase for whitelisted identities; claim: free mint for them; lottery_signup / lottery_rights: the fair drop; public: everyone. */
export const DROP_PHASE_KINDS = SALE_PHASE_KINDS;
export const dropPhaseKind = z.enum(DROP_PHASE_KINDS);
export type DropPhaseKind = z.infer<typeof dropPhaseKind>;
/** Where a phase's per-identity quota comes from. */
export const quotaSource = z.enum(['whitelist', 'lottery', 'release', 'none']);
export type QuotaSource = z.infer<typeof quotaSource>;
/** A phase at the server's time: pending = its start is not known yet (a rights phase before the draw, or a phase after it). */
export const phaseState = z.enum(['upcoming', 'active', 'ended', 'pending']);

export const phaseView = z.object({
  seq: z.number().int(),
  kind: dropPhaseKind,
  /** Effective window by server time (epoch ms); null start = pending, null end = open-ended. */
  startAt: z.number().int().nullable(),
  endAt: z.number().int().nullable(),
  priceFen: z.number().int(),
  quotaSource,
  state: phaseState,
});
export type PhaseView = z.infer<typeof phaseView>;

export const lotteryStatus = z.enum(['open', 'closed', 'drawn']);
/** A lottery's public facts (the same for everyone). */
export const lotteryView = z.object({
  /** The Conflux epoch whose pivot block hash seeds the draw, published before sign-up opens. */
  drawEpoch: z.number().int(),
  winners: z.number().int(),
  winQuota: z.number().int(),
  rightsMinutes: z.number().int(),
  algorithm: z.string(),
  status: lotteryStatus,
  entries: z.number().int(),
  signupStartAt: z.number().int().nullable(),
  signupEndAt: z.number().int().nullable(),
  drawnAt: z.number().int().nullable(),
  rightsEndAt: z.number().int().nullable(),
  blockHash: z.string().nullable(),
  winnersHash: z.string().nullable(),
  /** The chain's newest epoch now (null without a chain): the draw waits for drawEpoch. */
  chainEpoch: z.number().int().nullable(),
});
export type LotteryView = z.infer<typeof lotteryView>;

/** The caller's side of a lottery. */
export const lotteryMine = z.object({
  entered: z.boolean(),
  entryNo: z.number().int().nullable(),
  /** null until the draw. */
  won: z.boolean().nullable(),
  /** Units the caller may buy in the rights window (0 unless won). */
  quota: z.number().int(),
});

/** A release as the mint pages show it (public). */
export const mintRelease = z.object({
  projectId: z.number().int(),
  name: z.string(),
  cover: z.string(),
  creatorName: z.string(),
  /** The release's list price; each phase has its own price. */
  priceFen: z.number().int(),
  supply: z.number().int(),
  /** Units taken (reserved by unpaid orders + paid/claimed), live. */
  minted: z.number().int(),
  remaining: z.number().int(),
  status: projectStatus,
  phases: z.array(phaseView),
  /** The phase open now (index into phases) or null. */
  current: z.number().int().nullable(),
  lottery: lotteryView.nullable(),
});
export type MintRelease = z.infer<typeof mintRelease>;

/** GET /official/mint/?projectId= (public; code 200): the release's mint page data, or without projectId the releases with phases not yet over. */
export const officialMintQuery = z.object({ projectId: optionalId });
export const officialMint = z.object({ serverTime: z.number().int(), list: z.array(mintRelease) });
export type OfficialMint = z.infer<typeof officialMint>;

export const projectIdBody = z.object({ projectId: idParam });

/** POST /api/user/mint/v1/whitelist {projectId} (login): am I whitelisted, my quota and use, the phase windows. */
export const whitelistStatus = z.object({
  projectId: z.number().int(),
  /** Whether the caller's identity (or, before a real-name verification, the account) has a whitelist entry. */
  whitelisted: z.boolean(),
  /** Units the whitelist allows this identity (the largest entry among its accounts). */
  quota: z.number().int(),
  /** Units taken in whitelist phases by every account of the identity (reserved + paid + claimed). */
  used: z.number().int(),
  remaining: z.number().int(),
  /** Without a real name the entry counts once the account is verified. */
  verified: z.boolean(),
  phases: z.array(phaseView),
  serverTime: z.number().int(),
});
export type WhitelistStatus = z.infer<typeof whitelistStatus>;

/** POST /api/user/mint/v1/mintinfo {projectId} (login): the current phase and what the caller may do in it. */
export const mintInfo = mintRelease.extend({
  serverTime: z.number().int(),
  my: z.object({
    verified: z.boolean(),
    /** May buy (whitelist, lottery_rights, public) or claim (claim) in the current phase now. */
    eligible: z.boolean(),
    whitelisted: z.boolean(),
    /** The whitelist entry's quota of the caller's identity and the units taken against it (whatever the phase). */
    whitelistQuota: z.number().int(),
    whitelistUsed: z.number().int(),
    /** The current phase's quota for the caller, units taken against it, and what is left. */
    quota: z.number().int(),
    used: z.number().int(),
    remaining: z.number().int(),
    maxPerOrder: z.number().int(),
  }),
  lotteryMine: lotteryMine.nullable(),
});
export type MintInfo = z.infer<typeof mintInfo>;

/** POST /api/user/mint/v1/nftmint {projectId, count} (login): the free claim; answers the claim order (OrderDetail, paid → minting). */
export const nftmintBody = z.object({ projectId: idParam, count: intLike.pipe(z.number().int().min(1).max(1000)).nullish() });

/** POST /api/user/mint/v1/lottery/enter {projectId} (login): one entry per real-name identity. */
export const lotteryEntry = z.object({ projectId: z.number().int(), entryNo: z.number().int(), entries: z.number().int() });

/** GET /official/lottery/proof/?projectId= (public; code 200): everything needed to recompute the draw. */
export const lotteryProofQuery = z.object({ projectId: idParam });
export const lotteryProof = z.object({
  projectId: z.number().int(),
  name: z.string(),
  algorithm: z.string(),
  /** The algorithm as code (packages/protocol/src/lottery-draw.ts). */
  pseudocode: z.string(),
  status: lotteryStatus,
  drawEpoch: z.number().int(),
  /** The pivot block hash of drawEpoch (null before the draw) and its explorer link. */
  blockHash: z.string().nullable(),
  blockUrl: z.string().nullable(),
  winnersCount: z.number().int(),
  signupStartAt: z.number().int().nullable(),
  signupEndAt: z.number().int().nullable(),
  /** When the entry list was frozen and the chain's newest epoch then (below drawEpoch: the seed was unknown). */
  closedAt: z.number().int().nullable(),
  closedEpoch: z.number().int().nullable(),
  drawnAt: z.number().int().nullable(),
  /** Masked account ids in entry-number order (entry n at index n − 1); empty before the list is frozen. */
  entries: z.array(z.string()),
  entriesHash: z.string().nullable(),
  winners: z.array(z.number().int()),
  winnersHash: z.string().nullable(),
});
export type LotteryProof = z.infer<typeof lotteryProof>;

/** Phases as configured (server function, dev route): times in epoch ms; a lottery_rights phase has none. */
export const phaseInput = z.object({
  kind: dropPhaseKind,
  startAt: z.number().int().nullish(),
  endAt: z.number().int().nullish(),
  priceFen: z.number().int().min(0).max(100_000_000).nullish(),
});
export type PhaseInput = z.infer<typeof phaseInput>;
export const lotteryInput = z.object({
  drawEpoch: z.number().int().min(1),
  winners: z.number().int().min(1).max(1_000_000),
  winQuota: z.number().int().min(1).max(1000),
  rightsMinutes: z.number().int().min(1).max(7 * 24 * 60),
});
export type LotteryInput = z.infer<typeof lotteryInput>;

/** POST /dev/drop-phases (DEV_MODE only, hidden from the docs): a release with phases / a lottery, times relative to now. */
export const devPhasesBody = z.object({
  supply: intLike.pipe(z.number().int().min(1).max(100_000)).nullish(),
  priceFen: intLike.pipe(z.number().int().min(1).max(100_000_000)).nullish(),
  perIdentityLimit: intLike.pipe(z.number().int().min(1).max(1000)).nullish(),
  maxPerOrder: intLike.pipe(z.number().int().min(1).max(1000)).nullish(),
  phases: z
    .array(
      z.object({
        kind: dropPhaseKind,
        /** Start relative to now (ms); omitted: right after the previous phase. */
        startInMs: z.number().int().min(-365 * 86_400_000).max(365 * 86_400_000).nullish(),
        /** Length (ms); omitted on the last phase: open-ended. Ignored on lottery_rights. */
        durationMs: z.number().int().min(1000).max(365 * 86_400_000).nullish(),
        priceFen: z.number().int().min(0).max(100_000_000).nullish(),
      }),
    )
    .min(1)
    .max(8),
  /** The lottery: the draw epoch is the chain's newest epoch + drawEpochOffset. */
  lottery: z
    .object({
      drawEpochOffset: z.number().int().min(1).max(1_000_000),
      winners: z.number().int().min(1).max(100_000),
      winQuota: z.number().int().min(1).max(1000),
      rightsMinutes: z.number().int().min(1).max(24 * 60),
    })
    .nullish(),
  /** Put the caller on the whitelist with this quota. */
  whitelistMe: z.number().int().min(1).max(1000).nullish(),
});
export const devPhases = z.object({ projectId: z.number().int(), drawEpoch: z.number().int().nullable() });

export const officialMintResponse = envelope(officialMint.nullable());
export const whitelistResponse = envelope(whitelistStatus.nullable());
export const mintInfoResponse = envelope(mintInfo.nullable());
export const lotteryEntryResponse = envelope(lotteryEntry.nullable());
export const lotteryProofResponse = envelope(lotteryProof.nullable());
export const devPhasesResponse = envelope(devPhases.nullable());
