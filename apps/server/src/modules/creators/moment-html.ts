import sanitizeHtml from 'sanitize-html';

/**
 * A moment's body, sanitised on write. Plain text
 * and a minimal HTML are both accepted: paragraphs, line breaks, bold / italic / underline /
 * strike-through, and links (http/https only, opened in a new tab with rel="noopener noreferrer
 * nofollow ugc"). Everything else is dropped — scripts and styles with their content, event
 * handlers, images (a moment's pictures are its uploads), iframes, forms, `javascript:` and `data:`
 * URLs. Plain-text newlines stay newlines (the page renders the body with pre-wrap), and `<` in
 * plain text stays a visible character (escaped).
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'a'],
  allowedAttributes: { a: ['href', 'target', 'rel'] },
  allowedSchemes: ['http', 'https'],
  allowedSchemesByTag: {},
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // A link without an http(s) address loses its attributes; the bare <a> is unwrapped below.
    // (Renaming the tag here would break sanitize-html's closing tags.)
    a: (tagName, attribs): sanitizeHtml.Tag => {
      const href = (attribs.href ?? '').trim();
      return /^https?:\/\//i.test(href) ? { tagName, attribs: { href, target: '_blank', rel: 'noopener noreferrer nofollow ugc' } } : { tagName, attribs: {} };
    },
  },
};

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(cp) && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

export interface MomentBody {
  /** The sanitised HTML, stored and served. */
  html: string;
  /** Its plain text (entities decoded): what the length rule counts and summaries show. */
  text: string;
}

export function sanitizeMoment(raw: string): MomentBody {
  // The sanitiser's output is canonical: a link it stripped is exactly `<a>…</a>` (links do not nest).
  const html = sanitizeHtml(raw.replace(/\r\n?/g, '\n'), OPTIONS).replace(/<a>([\s\S]*?)<\/a>/g, '$1').trim();
  const text = decodeEntities(sanitizeHtml(html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/p>/gi, '</p>\n'), { allowedTags: [], allowedAttributes: {} })).trim();
  return { html, text };
}
