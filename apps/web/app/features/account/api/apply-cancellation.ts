import { SecurityPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import type { CancelBlocker, CancelRequest } from './types.ts';

/** cancel/apply: refused with status 1032 and `data.blockers` while anything would be lost. */
export function applyCancellation(smsCode: string) {
  return api<CancelRequest | { blockers: CancelBlocker[] }>(SecurityPaths.cancelApply, { smsCode, confirm: true });
}
