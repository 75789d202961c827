import { CREATOR_PATHS } from '../../../lib/creator-api/paths.ts';
import type { Caller, Moment, Page } from './types.ts';

/** POST listCreatorFriendsMoments {accountId | creatorId, pageNum, pageSize} — public, newest first. */
export function listMoments(call: Caller, q: { accountId?: string; creatorId?: number; pageNum: number; pageSize: number }) {
  return call<Page<Moment>>(CREATOR_PATHS.listMoments, q, { silent: true });
}
