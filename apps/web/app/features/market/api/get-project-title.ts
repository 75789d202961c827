import type { CatalogPaths } from '@cfx/contract/routes.ts';
import type { Caller, ProjectTitle } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const DETAILS_TITLE_PATH: (typeof CatalogPaths)['projectDetailsTitle'] = '/goods/v1/project/detailsTitle/';

/**
 * POST /goods/v1/project/detailsTitle/ {id} — what a title or a share card of a release needs
 * (`{id, name, cover, category, status, creator}`): the market's selected-release card. Unknown id: 1404.
 */
export function getProjectTitle(call: Caller, id: number) {
  return call<ProjectTitle>(DETAILS_TITLE_PATH, { id }, { silent: true });
}
