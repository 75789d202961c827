import type { CreatorPaths as Paths } from '@cfx/contract/routes.ts';

/** The follow and creator paths (checked against the contract by type; kept as literals so the route chunks stay small). */
export const CREATOR_PATHS = {
  follow: '/api/follow/v1/follow',
  followList: '/api/follow/v1/list',
  followMoments: '/api/follow/v1/moments',
  update: '/api/creator/v1/update',
  listMoments: '/api/user/creator/v1/listCreatorFriendsMoments',
  addMoment: '/api/user/creator/v1/addCreatorFriendsMoments',
  deleteMoment: '/api/user/creator/v1/deleteCreatorFriendsMoments',
  upload: '/api/user/creator/v1/upload',
  mediaInfo: '/api/user/creator/v1/selectCreatorMediaRelatedInfo',
  query: '/api/creator/v1/query',
} as const satisfies Partial<Record<keyof typeof Paths | 'query', string>>;
