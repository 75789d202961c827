import { ContentPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { RecommendList } from './types.ts';

/** POST /background/getRecommendList — every recommend list (home_recommend, home_hot, home_creators, …) with cards. */
export function listRecommend(call: Caller, code?: string) {
  return call<RecommendList[]>(ContentPaths.recommendList, code ? { code } : {}, { silent: true });
}
