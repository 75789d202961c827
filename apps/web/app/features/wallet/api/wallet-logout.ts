import { UserPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

/** POST walletlogout: disconnects the wallet from this session (the link stays). */
export function walletLogout(opts: { silent?: boolean } = {}) {
  return api<null>(UserPaths.walletlogout, {}, opts);
}
