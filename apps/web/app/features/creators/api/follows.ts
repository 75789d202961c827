import { apiData } from '../../../lib/api.ts';
import { CREATOR_PATHS } from '../../../lib/creator-api/paths.ts';
import type { FeedMoment, FollowedCreator, Page } from './types.ts';

/** POST /api/follow/v1/list {pageNum, pageSize} — the creators I follow, newest follow first. */
export function listFollowed(q: { pageNum: number; pageSize: number }) {
  return apiData<Page<FollowedCreator>>(CREATOR_PATHS.followList, q, { silent: true });
}

/** POST /api/follow/v1/moments {pageNum, pageSize} — moments of the creators I follow, newest first. */
export function listFeed(q: { pageNum: number; pageSize: number }) {
  return apiData<Page<FeedMoment>>(CREATOR_PATHS.followMoments, q, { silent: true });
}
