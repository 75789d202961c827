import { SecurityPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

/** Signs out one other device, or all of them. */
export function revokeSessions(target: { id: string } | { others: true }) {
  return api<{ revoked: number }>(SecurityPaths.revokeSessions, target);
}
