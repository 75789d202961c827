import { decodeEntities } from '../../components/ui/html-text.ts';

/**
 * A suggestion's `text` is HTML: the name escaped, the match wrapped in <em>…</em>. Split it into
 * plain-text parts instead of injecting HTML (pure, unit-tested).
 */
export function highlightParts(html: string): Array<{ text: string; em: boolean }> {
  const out: Array<{ text: string; em: boolean }> = [];
  let em = false;
  for (const piece of html.split(/(<\/?em>)/i)) {
    if (/^<em>$/i.test(piece)) em = true;
    else if (/^<\/em>$/i.test(piece)) em = false;
    else if (piece) {
      const text = decodeEntities(piece.replace(/<[^>]*>/g, ''));
      if (text) out.push({ text, em });
    }
  }
  return out;
}

/** Where a suggestion leads: the release, the collectible or the creator (by id: the page redirects to its accountId URL). */
export function suggestionHref(s: { type: string; id: number }): string {
  if (s.type === '0') return `/projects/detail/${s.id}`;
  if (s.type === '1') return `/assets/${s.id}`;
  return `/creator/${s.id}`;
}
