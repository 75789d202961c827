import { UserPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

export function changeProfpic(id: string) {
  return api<null>(UserPaths.changeprofpic, { id });
}
