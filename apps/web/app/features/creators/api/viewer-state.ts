import { api } from '../../../lib/api.ts';
import { CREATOR_PATHS } from '../../../lib/creator-api/paths.ts';

/**
 * The signed-in viewer's view of a creator (pages render logged-out on the server): whether they
 * follow them and the current counts — /api/creator/v1/query with the token.
 */
export function viewerState(creatorId: number) {
  return api<{ following: boolean; followerCount: number; momentCount: number }>(CREATOR_PATHS.query, { id: creatorId }, { silent: true });
}
