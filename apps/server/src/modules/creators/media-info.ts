import type { MediaInfo } from '@cfx/contract/creators.ts';
import type { AppContext } from '../../context.ts';
import { queryCreator } from '../catalog/index.ts';

/**
 * selectCreatorMediaRelatedInfo: a creator's media links and stats (followers, releases, moments,
 * collectibles of their releases and their holders). `creatorId` / `accountId` name the creator;
 * the routes pass the caller's own creator when neither is given.
 */
export async function mediaInfo(ctx: AppContext, by: { id?: number; accountId?: string | null }): Promise<MediaInfo> {
  const c = await queryCreator(ctx, by);
  return {
    creatorId: c.id,
    accountId: c.accountId,
    mediaLinks: c.mediaLinks,
    stats: { followers: c.followerCount, releases: c.projectCount, moments: c.momentCount, goods: c.goodsCount, holders: c.holderCount },
  };
}
