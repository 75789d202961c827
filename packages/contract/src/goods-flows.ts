import { z } from 'zod';
import { envelope } from './envelope.ts';
import { attribute, goodsCard } from './catalog.ts';
import { signatureParam } from './market.ts';
import { idParam, intLike, optionalId, page, paging, safeText } from './paging.ts';

/**
 * What a holder can do with a collectible besides selling it (issue #10, docs/drops.md "Blind
 * boxes", "Compose", "Shift and gifts"): open a blind box, compose fragments into a result, move a
 * collectible to another own address or give it to another real-named user (转赠).
 *
 * Opening and composing burn tokens and mint new ones in ONE `Collectible.consumeAndMint`
 * transaction, with the holder's CIP-23 consent: the server answers the `Consume` typed data
 * (`consumeTypedData`, the Collectible's own domain), the wallet signs it with
 * `cfx_signTypedData_v4(owner, JSON.stringify(typedData))`, the client posts the signature, and the
 * operator sends the transaction (exactly once). Moving and giving are the holder's own wallet
 * transaction `Collectible.transferFrom(from, to, tokenId)` (sponsored, 0 CFX).
 */

const typedField = z.object({ name: z.string(), type: z.string() });
/** Consume typed data, ready for `cfx_signTypedData_v4` (hex addresses, ids as decimal strings). */
export const consumeTypedData = z.object({
  types: z.record(z.string(), z.array(typedField)),
  primaryType: z.literal('Consume'),
  domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int(), verifyingContract: z.string() }),
  message: z.object({ owner: z.string(), burnIds: z.array(z.string()), mintIds: z.array(z.string()), flowId: z.string() }),
});
export type ConsumeTypedData = z.infer<typeof consumeTypedData>;

// ------------------------------------------------------------------ blind boxes

export const boxKind = z.object({
  /** Position in the published odds (what the draw assigns). */
  index: z.number().int(),
  name: z.string(),
  image: z.string(),
  /** Display tier, e.g. 隐藏 / 稀有 / 普通. */
  rarity: z.string(),
  /** Exactly this many boxes of the release hold this kind (odds = count / supply). */
  count: z.number().int(),
  attributes: z.array(attribute),
});
export type BoxKind = z.infer<typeof boxKind>;

/** GET /goods/v1/box/info/?projectId= — a box release's odds, commitment and (after the reveal) the proof. null when the release is not a box release. */
export const boxInfoQuery = z.object({ projectId: idParam });
export const boxInfo = z.object({
  projectId: z.number().int(),
  name: z.string(),
  /** The release the revealed items belong to. */
  itemProjectId: z.number().int(),
  supply: z.number().int(),
  kinds: z.array(boxKind),
  /** The draw algorithm (packages/protocol/src/box-draw.ts). */
  algorithm: z.string(),
  /** sha256(serverSeed), published before the sale (hex). */
  commitment: z.string(),
  /** The chain epoch whose pivot block hash is mixed into the seed; chosen before the sale. */
  revealEpoch: z.number().int(),
  /** The chain's current epoch (null without a chain). */
  currentEpoch: z.number().int().nullable(),
  /** Sold out (every serial allocated) or the sale window closed: the reveal may happen. */
  saleOver: z.boolean(),
  status: z.enum(['committed', 'revealed']),
  /** After the reveal: what anyone needs to recompute the assignment. */
  reveal: z
    .object({
      serverSeed: z.string(),
      blockHash: z.string(),
      /** sha256(serverSeed ‖ blockHash) (hex). */
      seed: z.string(),
      /** sha256 of the kind indexes of serials 1…supply joined by commas (hex). */
      assignmentHash: z.string(),
      revealedAt: z.number().int(),
    })
    .nullable(),
  serverTime: z.number().int(),
});
export type BoxInfo = z.infer<typeof boxInfo>;

export const openingStatus = z.enum(['signing', 'submitted', 'completed', 'failed']);
/** GET /goods/v1/openBox/?goodsId= and POST /goods/v1/openBox/confirm {goodsId, signature}. */
/** `retry=1`: start a new attempt after a failed one (without it a failed opening is answered as it is, with its reason). */
export const openBoxQuery = z.object({ goodsId: idParam, retry: z.enum(['0', '1']).nullish() });
export const openBoxConfirmBody = z.object({ goodsId: idParam, signature: signatureParam });
export const opening = z.object({
  goodsId: z.number().int(),
  projectId: z.number().int(),
  serial: z.number().int(),
  /**
   * signing: sign `typedData` and post it to openBox/confirm before `expiresAt`; submitted: the
   * operator's transaction is out (poll this call); completed: `item` is yours; failed: `failReason`
   * (openBox again to retry).
   */
  status: openingStatus,
  flowId: z.string(),
  /** The wallet that signs and receives the item (base32). */
  owner: z.string(),
  collectible: z.string(),
  collectibleHex: z.string(),
  /** Consume typed data while signing, else null. */
  typedData: consumeTypedData.nullable(),
  burnTokenId: z.string(),
  mintTokenId: z.string(),
  expiresAt: z.number().int().nullable(),
  txHash: z.string().nullable(),
  explorerUrl: z.string().nullable(),
  failReason: z.string().nullable(),
  /** The drawn item, once completed: its collectible and its kind with the odds. */
  item: z
    .object({
      goodsId: z.number().int(),
      tokenId: z.string(),
      name: z.string(),
      image: z.string(),
      kind: boxKind,
      supply: z.number().int(),
    })
    .nullable(),
  serverTime: z.number().int(),
});
export type Opening = z.infer<typeof opening>;

// ------------------------------------------------------------------ compose / fragments

/**
 * Why one of my fragments cannot be used now (null: it can): not minted yet, on sale, held by another
 * flow (a compose selection, a box opening, a transfer), or at another address of mine. The holding
 * period does not apply: composing burns my own collectibles, it does not pass them on.
 */
export const fragmentBlock = z.enum(['not_minted', 'on_sale', 'locked', 'elsewhere']);
export const fragmentItem = goodsCard.extend({
  tokenId: z.string().nullable(),
  available: z.boolean(),
  blockedBy: fragmentBlock.nullable(),
  /** The compose number holding it (when locked by a compose of mine), else null. */
  lockedBy: z.string().nullable(),
});
export type FragmentItem = z.infer<typeof fragmentItem>;

/** POST /goods/v1/chip {projectId, pageNum, pageSize}: my fragments of one release. */
export const chipBody = z.object({ projectId: idParam, ...paging });
export const chipGroup = z.object({
  projectId: z.number().int(),
  projectName: z.string(),
  cover: z.string(),
  /** Fragments of this release I hold (not burned). */
  count: z.number().int(),
  /** Of them, usable in a compose now. */
  available: z.number().int(),
  /** Compose rules that take this release. */
  ruleIds: z.array(z.number().int()),
});
export type ChipGroup = z.infer<typeof chipGroup>;
export const chip = chipGroup.extend({ page: page(fragmentItem) });
/** POST /goods/v1/chipAll {}: every fragment release I hold, grouped. */
export const chipAllBody = z.object({}).passthrough();

export const ruleStatus = z.enum(['upcoming', 'active', 'ended', 'sold_out']);
export const ruleIngredient = z.object({
  projectId: z.number().int(),
  projectName: z.string(),
  cover: z.string(),
  /** Needed per compose. */
  count: z.number().int(),
  /** How many I hold that are usable now (my progress). */
  held: z.number().int(),
  enough: z.boolean(),
});
export const composeRule = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  result: z.object({ projectId: z.number().int(), name: z.string(), image: z.string(), attributes: z.array(attribute) }),
  ingredients: z.array(ruleIngredient),
  startAt: z.number().int(),
  endAt: z.number().int().nullable(),
  maxTimes: z.number().int(),
  usedTimes: z.number().int(),
  remaining: z.number().int(),
  status: ruleStatus,
  /** Active, results left, and every ingredient enough. */
  canCompose: z.boolean(),
  serverTime: z.number().int(),
});
export type ComposeRule = z.infer<typeof composeRule>;
/** POST /api/compose/v1/composerule {ruleId?, pageNum, pageSize} */
export const composeRuleBody = z.object({ ruleId: optionalId, ...paging });

/** POST /api/compose/v1/getfragmentlist {ruleId} */
export const fragmentListBody = z.object({ ruleId: idParam });
export const fragmentList = z.object({
  rule: composeRule,
  ingredients: z.array(z.object({ projectId: z.number().int(), projectName: z.string(), count: z.number().int(), items: z.array(fragmentItem) })),
});

const goodsIdsParam = z.array(idParam).min(1).max(50);
/** POST /api/compose/v1/selectfragment {ruleId, goodsIds} */
export const selectFragmentBody = z.object({ ruleId: idParam, goodsIds: goodsIdsParam });
/** POST /api/compose/v1/confirmcompose {composeNo} or {ruleId, goodsIds} */
export const composeNoParam = z.string().trim().min(1).max(40).regex(/^[A-Za-z0-9_-]+$/);
export const confirmComposeBody = z.object({ composeNo: composeNoParam.nullish(), ruleId: optionalId, goodsIds: goodsIdsParam.nullish() });
/** POST /api/compose/v1/submitcompose {composeNo, signature} */
export const submitComposeBody = z.object({ composeNo: composeNoParam, signature: signatureParam });
/** POST /api/compose/v1/composerecord {composeNo?, pageNum, pageSize} */
export const composeRecordBody = z.object({ composeNo: composeNoParam.nullish(), ...paging });

export const composeStatus = z.enum(['selected', 'confirmed', 'submitted', 'completed', 'failed', 'expired', 'cancelled']);
export const composeRecord = z.object({
  composeNo: z.string(),
  ruleId: z.number().int(),
  ruleName: z.string(),
  /**
   * selected: the fragments are reserved (cannot be listed) until `expiresAt`; confirmed: the result
   * is reserved too and the consent waits for the signature; submitted: the operator's transaction is
   * out; completed: fragments burned, result minted (`result.goodsId`); failed: `failReason` (the
   * fragments and the result are released); expired / cancelled: released unsigned.
   */
  status: composeStatus,
  goods: z.array(z.object({ goodsId: z.number().int(), tokenId: z.string(), name: z.string(), image: z.string(), serial: z.number().int(), projectId: z.number().int() })),
  result: z.object({ serial: z.number().int().nullable(), tokenId: z.string().nullable(), goodsId: z.number().int().nullable(), name: z.string(), image: z.string() }),
  txHash: z.string().nullable(),
  explorerUrl: z.string().nullable(),
  failReason: z.string().nullable(),
  expiresAt: z.number().int().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type ComposeRecord = z.infer<typeof composeRecord>;
export const composeConsent = z.object({
  record: composeRecord,
  owner: z.string(),
  collectible: z.string(),
  collectibleHex: z.string(),
  /** Sign with cfx_signTypedData_v4 and post it to submitcompose before record.expiresAt. */
  typedData: consumeTypedData,
});
export type ComposeConsent = z.infer<typeof composeConsent>;

// ------------------------------------------------------------------ shift and gifts

export const transferBlock = z.enum(['not_minted', 'burned', 'on_sale', 'holding', 'locked', 'elsewhere', 'no_wallet']);
export const transferStatus = z.enum(['pending', 'done', 'expired']);
const partyBrief = z.object({ accountId: z.string(), nickname: z.string() });
export const goodsTransfer = z.object({
  transferNo: z.string(),
  /** shift: to another own address; gift: to another user (转赠). */
  kind: z.enum(['shift', 'gift']),
  /** pending until the chain shows the token at the destination; expired: never sent in time. */
  status: transferStatus,
  /** Seen from the caller: sent or received. */
  direction: z.enum(['out', 'in']),
  goods: z.object({ goodsId: z.number().int(), name: z.string(), image: z.string(), serial: z.number().int(), projectName: z.string(), tokenId: z.string() }),
  from: partyBrief,
  to: partyBrief,
  fromAddress: z.string(),
  toAddress: z.string(),
  txHash: z.string().nullable(),
  explorerUrl: z.string().nullable(),
  createdAt: z.number().int(),
  expiresAt: z.number().int(),
  doneAt: z.number().int().nullable(),
});
export type GoodsTransfer = z.infer<typeof goodsTransfer>;
/** What the wallet sends: `Collectible.transferFrom(fromHex, toHex, tokenId)` to `collectibleHex`, from `fromAddress`. */
export const transferIntent = goodsTransfer.extend({ collectible: z.string(), collectibleHex: z.string(), fromHex: z.string(), toHex: z.string() });
export type TransferIntent = z.infer<typeof transferIntent>;

/** GET /goods/v1/queryShiftStatus/?goodsId= */
export const shiftStatusQuery = z.object({ goodsId: idParam });
export const shiftStatus = z.object({
  goodsId: z.number().int(),
  tokenId: z.string().nullable(),
  /** Whether it can be moved or given now. */
  canShift: z.boolean(),
  blockedBy: transferBlock.nullable(),
  /** Why not, in the request's language. */
  reason: z.string().nullable(),
  holdingDays: z.number().int(),
  /** When the holding period ends (acquired + holding days). */
  transferableAt: z.number().int(),
  walletAddress: z.string().nullable(),
  /** Where the token is when not at the linked wallet (moved to another own address). */
  holderAddress: z.string().nullable(),
  giftsToday: z.number().int(),
  giftsPerDay: z.number().int(),
  /** A move or gift of it waiting for the wallet. */
  pending: goodsTransfer.nullable(),
  serverTime: z.number().int(),
});
export type ShiftStatus = z.infer<typeof shiftStatus>;

/** POST /goods/v1/shift {goodsId, toAddress}: to another address of mine (not linked to any account). */
export const shiftBody = z.object({ goodsId: idParam, toAddress: safeText(80).transform((s) => s.trim()) });
const receiverFields = {
  mobile: z.string().trim().regex(/^1\d{10}$/).nullish(),
  accountId: z.string().trim().regex(/^\d{1,20}$/).nullish(),
};
/** POST /goods/v1/gift {goodsId, mobile | accountId}: 转赠 to another real-named user. */
export const giftBody = z.object({ goodsId: idParam, ...receiverFields });
/** POST /goods/v1/gift/receiver {mobile | accountId}: who would receive it, and whether they can. */
export const giftReceiverBody = z.object(receiverFields);
export const giftReceiver = z.object({
  accountId: z.string(),
  /** Masked (x***). */
  nickname: z.string(),
  avatar: z.string(),
  eligible: z.boolean(),
  reason: z.string().nullable(),
});
/** POST /goods/v1/shift/notify {transferNo, txHash?}: the wallet sent the transfer; the server re-reads the chain. */
export const shiftNotifyBody = z.object({ transferNo: z.string().trim().min(1).max(40).regex(/^[A-Za-z0-9_-]+$/), txHash: z.string().trim().max(80).nullish() });
/** POST /goods/v1/shift/record {kind?, pageNum, pageSize}: my moves and gifts, sent and received. */
export const shiftRecordBody = z.object({ kind: z.enum(['shift', 'gift', 'all']).nullish(), ...paging });

// ------------------------------------------------------------------ dev mode (hidden from the docs)

/** POST /dev/box-release: a revealed-soon box release with boxes granted to the caller. */
export const devBoxReleaseBody = z.object({
  /** Kinds in order with their counts (their sum is the supply). Default 1 hidden, 2 rare, 3 common. */
  kinds: z.array(z.object({ name: safeText(40).nullish(), rarity: safeText(16).nullish(), count: intLike.pipe(z.number().int().min(0).max(10_000)) })).min(1).max(10).nullish(),
  /** Boxes given to the caller now (minted by the mint job); the rest stays on sale. Default: all (sold out). */
  grant: intLike.pipe(z.number().int().min(0).max(1000)).nullish(),
  /** The reveal epoch, this many epochs after the current one (default 1). */
  revealInEpochs: intLike.pipe(z.number().int().min(1).max(100_000)).nullish(),
  priceFen: intLike.pipe(z.number().int().min(1).max(100_000_000)).nullish(),
});
export const devBoxRelease = z.object({
  projectId: z.number().int(),
  itemProjectId: z.number().int(),
  revealEpoch: z.number().int(),
  goods: z.array(z.object({ goodsId: z.number().int(), tokenId: z.string() })),
});
/** POST /dev/compose-rule: fragment releases with fragments granted to the caller and a rule taking them. */
export const devComposeRuleBody = z.object({
  /** Fragment releases the rule takes (default 1). */
  ingredients: intLike.pipe(z.number().int().min(1).max(3)).nullish(),
  /** Fragments of each release per compose (default 3). */
  count: intLike.pipe(z.number().int().min(1).max(10)).nullish(),
  /** Fragments of each release given to the caller (default: count). */
  grant: intLike.pipe(z.number().int().min(0).max(100)).nullish(),
  maxTimes: intLike.pipe(z.number().int().min(1).max(10_000)).nullish(),
});
export const devComposeRule = z.object({
  ruleId: z.number().int(),
  fragmentProjectIds: z.array(z.number().int()),
  resultProjectId: z.number().int(),
  goods: z.array(z.object({ goodsId: z.number().int(), tokenId: z.string() })),
});

// ------------------------------------------------------------------ responses

export const boxInfoResponse = envelope(boxInfo.nullable());
export const openingResponse = envelope(opening.nullable());
export const chipResponse = envelope(chip.nullable());
export const chipAllResponse = envelope(z.array(chipGroup).nullable());
export const composeRulePageResponse = envelope(page(composeRule).nullable());
export const fragmentListResponse = envelope(fragmentList.nullable());
export const composeRecordResponse = envelope(composeRecord.nullable());
export const composeRecordPageResponse = envelope(page(composeRecord).nullable());
export const composeConsentResponse = envelope(composeConsent.nullable());
export const shiftStatusResponse = envelope(shiftStatus.nullable());
export const transferIntentResponse = envelope(transferIntent.nullable());
export const goodsTransferResponse = envelope(goodsTransfer.nullable());
export const goodsTransferPageResponse = envelope(page(goodsTransfer).nullable());
export const giftReceiverResponse = envelope(giftReceiver.nullable());
export const devBoxReleaseResponse = envelope(devBoxRelease.nullable());
export const devComposeRuleResponse = envelope(devComposeRule.nullable());
