/**
 * Follow and creators' shapes, type-only from the contract (a value import would bundle zod).
 * Times are epoch milliseconds.
 */
export type { CreatorUpload, FeedMoment, FollowedCreator, FollowState, MediaInfo, Moment, MomentImage } from '@cfx/contract/creators.ts';
export type { Page } from '@cfx/contract/paging.ts';
import type { z } from 'zod';
import type { creatorDetail } from '@cfx/contract/catalog.ts';
import type { api } from '../../../lib/api.ts';

export type CreatorDetail = z.infer<typeof creatorDetail>;

/** The browser's `api()` or a route loader's server caller: same arguments, same result. */
export type Caller = typeof api;

export interface MediaLinkDraft {
  type: string;
  label: string;
  url: string;
}
