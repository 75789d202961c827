import { SearchPaths } from '@cfx/contract/routes.ts';
import { api } from '../../../lib/api.ts';

/**
 * POST /search/v1/queryFinal {text} with the user's token: records the term in their history
 * (the results page itself is rendered by its loader). One creator card is the smallest answer.
 */
export function recordSearch(text: string) {
  return api<unknown>(SearchPaths.queryFinal, { text, pageNum: 1, pageSize: 1, type: '2' }, { silent: true });
}
