import { SettledPaths } from '@cfx/contract/routes.ts';
import type { SettledInput } from '@cfx/contract/settled-rules.ts';
import { api } from '../../../lib/api.ts';

/**
 * POST /official/settled. Silent: the form shows the server's reason (a broken rule, an attachment
 * that is not the user's, an application already open) under the form rather than as a toast.
 */
export function submitApplication(input: SettledInput) {
  return api<{ id: number; status: string }>(SettledPaths.submit, input, { silent: true });
}
