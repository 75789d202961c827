import { CatalogPaths } from '@cfx/contract/routes.ts';
import type { Caller } from './caller.ts';
import type { ProjectSale } from './types.ts';

/** GET /goods/v1/project/subSale/?id= — the live sale state (status, remaining, ms until start/end). */
export function getProjectSale(call: Caller, id: string) {
  return call<ProjectSale>(CatalogPaths.projectSubSale, undefined, { method: 'GET', query: { id }, silent: true });
}
