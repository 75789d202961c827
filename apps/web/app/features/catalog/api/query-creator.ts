import { CatalogPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { CreatorDetail } from './types.ts';

/** POST /api/creator/v1/query {accountId} or {id} — a creator's profile. Unknown: 1404. */
export function queryCreator(call: Caller, by: { accountId: string } | { id: number }) {
  return call<CreatorDetail>(CatalogPaths.creatorQuery, by);
}
