import { api } from '../../../lib/api.ts';
import { CREATOR_PATHS } from '../../../lib/creator-api/paths.ts';
import type { FollowState } from './types.ts';

/** POST /api/follow/v1/follow {creatorId, follow} — idempotent; answers the state and the follower count. */
export function followCreator(creatorId: number, follow: boolean) {
  return api<FollowState>(CREATOR_PATHS.follow, { creatorId, follow });
}
