import type { DropPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { NowStint } from './types.ts';

/** Checked against the contract by type (a value import would grow the shared chunk). */
const NOW_STINT_PATH: (typeof DropPaths)['nowStint'] = '/official/stint/nowStint/';

/** GET /official/stint/nowStint/?projectId= — my purchase limit of a release (per real-name identity), bought, remaining, live stock. */
export function nowStint(projectId: number) {
  return api<NowStint>(NOW_STINT_PATH, undefined, { method: 'GET', query: { projectId }, silent: true });
}
