import { z } from 'zod';
import { creatorCard, goodsCard, projectCard } from './catalog.ts';
import { envelope } from './envelope.ts';
import { page, paging, safeText } from './paging.ts';

/**
 * Search. Text is matched as a substring of names
 * (case- and width-insensitive), so 1- and 2-character Chinese terms work; exact matches rank
 * before prefix matches before infix matches. Input is at most 20 characters.
 */

/** '0' release (project), '1' collectible; '2' creator is this server's addition. */
export const suggestionType = z.enum(['0', '1', '2']);
export const suggestion = z.object({
  /** The name as HTML with the matched part in <em>…</em> (the rest HTML-escaped). */
  text: z.string(),
  plainText: z.string(),
  type: suggestionType,
  id: z.number().int(),
});
export type Suggestion = z.infer<typeof suggestion>;

export const searchText = safeText(200);
export const queryBody = z.object({ text: searchText.nullish() });
export const suggestions = z.object({ projects: z.array(suggestion), goods: z.array(suggestion), creators: z.array(suggestion) });

export const queryFinalBody = z.object({
  text: searchText.nullish(),
  ...paging,
  /** Which list the paging applies to ('all': the same page of each). */
  type: z.enum(['all', '0', '1', '2']).nullish(),
});
export const searchResults = z.object({
  text: z.string(),
  projects: page(projectCard),
  goods: page(goodsCard),
  creators: page(creatorCard),
});

export const delHistoryBody = z.object({
  kw: safeText(200).nullish(),
  /** true: clear the whole history. */
  all: z.boolean().nullish(),
});

export const suggestionsResponse = envelope(suggestions.nullable());
export const searchResultsResponse = envelope(searchResults.nullable());
export const historyResponse = envelope(z.array(z.string()).nullable());
export const emptyResponse = envelope(z.null());
