import { Status } from '@cfx/contract/envelope.ts';
import { LIMITS } from '@cfx/contract/limits.ts';
import { ApiError } from '../../http/envelope.ts';
import { escapeHtml } from '../../util/rich-text.ts';
import { normalize, type Hit, type KindIndex } from './search-index.ts';

/** The raw search text, trimmed; at most 20 characters or 1001. */
export function checkSearchText(text: string | null | undefined): { raw: string; term: string } {
  const raw = (text ?? '').trim();
  if ([...raw].length > LIMITS.searchMax) throw new ApiError(Status.INVALID, 'searchTooLong');
  return { raw, term: normalize(raw) };
}

/** A name as HTML with the first occurrence of the normalised term in <em>, everything else escaped. */
export function highlight(name: string, term: string): string {
  let pos = -1;
  const n = normalize(name);
  if (n.length === name.length) pos = n.indexOf(term);
  if (pos < 0) pos = name.toLowerCase().indexOf(term);
  if (pos < 0) return escapeHtml(name);
  return `${escapeHtml(name.slice(0, pos))}<em>${escapeHtml(name.slice(pos, pos + term.length))}</em>${escapeHtml(name.slice(pos + term.length))}`;
}

/** Hits in rank order; `newestFirst` breaks ties by descending id (releases, creators) instead of ascending. */
export function ranked(index: KindIndex, term: string, limit: number, newestFirst: boolean): Hit[] {
  if (!newestFirst) return index.search(term, limit);
  const all = index.search(term);
  all.sort((a, b) => a.tier - b.tier || index.ids[b.idx]! - index.ids[a.idx]!);
  return all.slice(0, limit);
}
