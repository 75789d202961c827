/** Content shapes, type-only from the contract (a value import would bundle zod). */
import type { z } from 'zod';
import type { banner, newsDetail, recommendList } from '@cfx/contract/content.ts';

export type { NewsCard } from '@cfx/contract/content.ts';
export type { Page } from '@cfx/contract/paging.ts';
export type Banner = z.infer<typeof banner>;
export type NewsDetail = z.infer<typeof newsDetail>;
export type RecommendList = z.infer<typeof recommendList>;
export type RecommendItem = RecommendList['items'][number];
