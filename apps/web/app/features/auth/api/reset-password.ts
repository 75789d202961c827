import { UserPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';
import { base64Utf8 } from '../../../lib/base64.ts';

/**
 * Forgot password step 2. Answers: 000000 changed; 1001 password rule; 1002 not registered;
 * 1100 reset-token failure — handled here as an ordinary failure, not as a lost session.
 */
export function resetPassword(mobile: string, token: string, newPassword: string) {
  return api<null>(UserPaths.reset, { mobile, token, newPwd: base64Utf8(newPassword) }, { ownSessionCodes: true });
}
