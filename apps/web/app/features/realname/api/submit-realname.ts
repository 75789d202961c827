import { UserPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

/**
 * POST /api/user/profile/v1/submitrealname {name, idNumber}. Silent: the form shows the server's
 * reason (bad name / ID, under 18, mismatch, already used) next to the fields.
 */
export function submitRealname(body: { name: string; idNumber: string }) {
  return api<null>(UserPaths.submitrealname, body, { silent: true });
}
