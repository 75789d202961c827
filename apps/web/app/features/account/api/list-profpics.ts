import { UserPaths } from '@cfx/contract/routes.ts';
import { apiData } from '../../../lib/api.ts';
import type { Profpic } from './types.ts';

/** The avatars a user may choose (skips the default error message). */
export function listProfpics(): Promise<Profpic[]> {
  return apiData<Profpic[]>(UserPaths.profpicList);
}
