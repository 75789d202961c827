import type { CatalogPaths } from '@cfx/contract/routes.ts';
import type { Caller, ProjectOption } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk of `/`). */
const FIND_ALL_PATH: (typeof CatalogPaths)['findAll'] = '/goods/v1/findAll/';

/** GET /goods/v1/findAll/ — every release `{id, name, cover, category, status}`, newest first (the market's release filter). */
export function findAllProjects(call: Caller) {
  return call<ProjectOption[]>(FIND_ALL_PATH, undefined, { method: 'GET', silent: true });
}
