import { SecurityPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

/** Withdraws the pending cancellation during its cooling-off period. */
export function revokeCancellation() {
  return api<null>(SecurityPaths.cancelRevoke);
}
