import { UserPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

export function modifyNickname(nickname: string) {
  return api<null>(UserPaths.modifynickname, { nickname });
}
