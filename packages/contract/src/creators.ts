import { z } from 'zod';
import { creatorBrief, creatorDetail, mediaLink } from './catalog.ts';
import { CREATOR_LIMITS } from './creator-rules.ts';
import { envelope } from './envelope.ts';
import { idParam, optionalId, page, paging, safeText } from './paging.ts';
import { uploadResult } from './settled.ts';

/**
 * Follow and creators (issue #11; /api/follow/v1/follow, /api/creator/v1/update,
 * /api/user/creator/v1/selectCreatorMediaRelatedInfo, listCreatorFriendsMoments,
 * deleteCreatorFriendsMoments — their payloads are not shown in the spec and are designed here;
 * docs/api.md "Follow and creators"). The body schemas bound sizes and types only: the rules with
 * their messages are creator-rules.ts, applied by the server. Times are epoch ms.
 */

/** {creatorId, follow}: follow (true) or unfollow (false); idempotent. */
export const followBody = z.object({ creatorId: idParam, follow: z.boolean() });
export const followState = z.object({ creatorId: z.number().int(), following: z.boolean(), followerCount: z.number().int() });
export type FollowState = z.infer<typeof followState>;

/** A creator I follow, with what the follow page shows. */
export const followedCreator = creatorBrief.extend({
  intro: z.string(),
  followerCount: z.number().int(),
  /** The newest (not deleted) moment's time, null without any. */
  lastMomentAt: z.number().int().nullable(),
  followedAt: z.number().int(),
});
export type FollowedCreator = z.infer<typeof followedCreator>;
export const pageBody = z.object({ ...paging });

export const momentImage = z.object({ url: z.string(), width: z.number().int(), height: z.number().int() });
export type MomentImage = z.infer<typeof momentImage>;
export const moment = z.object({
  id: z.number().int(),
  creatorId: z.number().int(),
  /** Sanitised HTML (a minimal allow-list: paragraphs, line breaks, emphasis, https links); plain-text newlines are kept as newlines. */
  contentHtml: z.string(),
  images: z.array(momentImage),
  createdAt: z.number().int(),
  /** True for the creator's own moments when the request carries their token. */
  deletable: z.boolean(),
});
export type Moment = z.infer<typeof moment>;
/** A moment in the follow feed: with its creator. */
export const feedMoment = moment.extend({ creator: creatorBrief });
export type FeedMoment = z.infer<typeof feedMoment>;

/** {creatorId} or {accountId} of the creator; paging. */
export const listMomentsBody = z.object({ ...paging, creatorId: optionalId, accountId: safeText(32).nullish() });
export const addMomentBody = z.object({
  content: safeText(CREATOR_LIMITS.momentRawMax).nullish().transform((v) => v ?? ''),
  /** Keys of the creator's own image uploads, in display order. */
  imageKeys: z.array(z.string().max(200)).max(20).nullish().transform((v) => v ?? []),
});
export const deleteMomentBody = z.object({ id: idParam });

/**
 * The creator's own profile edit: every field optional (omitted or null = unchanged). Avatar and
 * banner are keys of the creator's own image uploads; mediaLinks replaces the whole list.
 */
export const updateCreatorBody = z.object({
  name: safeText(200).nullish(),
  intro: safeText(2000).nullish(),
  avatarKey: z.string().max(200).nullish(),
  bannerKey: z.string().max(200).nullish(),
  mediaLinks: z
    .array(z.object({ type: safeText(32), label: safeText(100), url: safeText(1000) }))
    .max(50)
    .nullish(),
});
export type UpdateCreatorBody = z.infer<typeof updateCreatorBody>;

/** {creatorId} or {accountId}; neither = the signed-in creator's own. */
export const mediaInfoBody = z.object({ creatorId: optionalId, accountId: safeText(32).nullish() });
export const creatorStats = z.object({
  followers: z.number().int(),
  releases: z.number().int(),
  moments: z.number().int(),
  goods: z.number().int(),
  holders: z.number().int(),
});
export const mediaInfo = z.object({
  creatorId: z.number().int(),
  accountId: z.string(),
  mediaLinks: z.array(mediaLink),
  stats: creatorStats,
});
export type MediaInfo = z.infer<typeof mediaInfo>;

/** An image upload of the creator (avatar, banner, moment images) with its pixel size. */
export const creatorUpload = uploadResult.extend({ width: z.number().int(), height: z.number().int() });
export type CreatorUpload = z.infer<typeof creatorUpload>;

export const followResponse = envelope(followState.nullable());
export const followedPageResponse = envelope(page(followedCreator).nullable());
export const feedPageResponse = envelope(page(feedMoment).nullable());
export const momentPageResponse = envelope(page(moment).nullable());
export const momentResponse = envelope(moment.nullable());
export const deleteMomentResponse = envelope(z.object({ id: z.number().int(), deleted: z.literal(true) }).nullable());
export const updateCreatorResponse = envelope(creatorDetail.nullable());
export const mediaInfoResponse = envelope(mediaInfo.nullable());
export const creatorUploadResponse = envelope(creatorUpload.nullable());
export const makeCreatorResponse = envelope(z.object({ creatorId: z.number().int(), accountId: z.string() }).nullable());
