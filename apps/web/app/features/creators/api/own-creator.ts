import { api } from '../../../lib/api.ts';
import { CREATOR_PATHS } from '../../../lib/creator-api/paths.ts';
import type { CreatorDetail, MediaInfo, MediaLinkDraft, Moment } from './types.ts';

/** POST /api/creator/v1/update — the signed-in creator's own profile (omitted fields unchanged). */
export function updateCreator(body: { name?: string; intro?: string; avatarKey?: string; bannerKey?: string; mediaLinks?: MediaLinkDraft[] }) {
  return api<CreatorDetail>(CREATOR_PATHS.update, body, { silent: true });
}

/**
 * POST selectCreatorMediaRelatedInfo {} (token) — the signed-in creator's own media links and stats,
 * as the server has them now: what the profile editor starts from. Not a creator: 1012.
 */
export function getOwnMediaInfo(signal?: AbortSignal) {
  return api<MediaInfo>(CREATOR_PATHS.mediaInfo, {}, { silent: true, signal });
}

/** POST addCreatorFriendsMoments {content, imageKeys} — post a moment. */
export function addMoment(body: { content: string; imageKeys: string[] }) {
  return api<Moment>(CREATOR_PATHS.addMoment, body, { silent: true });
}

/** POST deleteCreatorFriendsMoments {id} — delete one of my moments. */
export function deleteMoment(id: number) {
  return api<{ id: number; deleted: true }>(CREATOR_PATHS.deleteMoment, { id });
}
