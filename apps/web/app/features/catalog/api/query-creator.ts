import { CatalogPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { CreatorDetail } from './types.ts';

/** POST /api/creator/v1/query {accountId} — a creator's profile. Unknown: 1404. */
export function queryCreator(call: Caller, accountId: string) {
  return call<CreatorDetail>(CatalogPaths.creatorQuery, { accountId });
}
