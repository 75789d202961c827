import type { DraftInput, ReleaseDraft } from '@cfx/contract/studio.ts';
import { fenToInput, fromLocalInput, inputToFen, intOf, toLocalInput } from '../../lib/form-input.ts';

/**
 * The studio's draft form as typed (strings) ↔ the draft the server keeps. Money is typed in yuan
 * and sent as integer fen, the sale start in China time (UTC+8) whatever the browser's zone, the
 * royalty as a percent with one decimal (sent per mille). Empty fields are sent as null.
 */
export interface DraftFormState {
  title: string;
  storyHtml: string;
  coverKey: string | null;
  cover: string | null;
  supply: string;
  price: string;
  start: string;
  limit: string;
  holdingDays: string;
  royalty: string;
}

export const emptyForm = (): DraftFormState => ({ title: '', storyHtml: '', coverKey: null, cover: null, supply: '', price: '', start: '', limit: '1', holdingDays: '0', royalty: '5' });

export function formOf(d: ReleaseDraft): DraftFormState {
  return {
    title: d.title,
    storyHtml: d.storyHtml,
    coverKey: d.coverKey,
    cover: d.cover,
    supply: d.supply === null ? '' : String(d.supply),
    price: fenToInput(d.priceFen),
    start: toLocalInput(d.saleStartAt),
    limit: d.perIdentityLimit === null ? '' : String(d.perIdentityLimit),
    holdingDays: d.holdingDays === null ? '' : String(d.holdingDays),
    royalty: d.royaltyPermille === null ? '' : String(d.royaltyPermille / 10),
  };
}

/** Percent text ('2.5') → per mille (25); null when empty or not a number with at most one decimal. */
export function percentToPermille(text: string): number | null {
  const t = text.trim();
  if (!/^\d{1,3}(\.\d)?$/.test(t)) return null;
  return Math.round(Number(t) * 10);
}

/** What the form sends: every field (empty → null), numbers as the server wants them. */
export function bodyOf(f: DraftFormState): DraftInput {
  return {
    title: f.title.trim(),
    storyHtml: f.storyHtml,
    coverKey: f.coverKey,
    supply: intOf(f.supply),
    priceFen: f.price.trim() ? inputToFen(f.price) : null,
    saleStartAt: fromLocalInput(f.start),
    perIdentityLimit: intOf(f.limit),
    holdingDays: intOf(f.holdingDays),
    royaltyPermille: percentToPermille(f.royalty),
  };
}

/** The story typed as plain text → paragraphs of HTML (the server sanitises it again). */
export function textToHtml(text: string): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return text
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${esc(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** HTML of a saved story → the plain text the form edits. */
export function htmlToPlain(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p[^>]*>/gi, '\n\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}
