import { encode } from 'uqr';
import { POSTER_SIZE } from '@cfx/contract/poster.ts';

/**
 * The share poster as SVG (a pure function of its input, so it is tested without rendering):
 *
 *   ┌──────────────────────────┐  750 × 1200, a white card on the canvas colour
 *   │  artwork (610 × 610)     │
 *   │  name (≤ 2 lines)        │
 *   │  line 2 · creator        │
 *   │  price label  ￥price     │
 *   │──────────────────────────│
 *   │  logo CFX Art      ▛▀▜  │  QR code to the page (with the sharer's invite code)
 *   │  site · scan hint  ▙▄▟  │
 *   └──────────────────────────┘
 */
export interface PosterInput {
  /** The artwork: an SVG document (generated art, inlined) or a raster data URI (an upload), or null for a plain tile. */
  art: { svg: string } | { dataUri: string } | null;
  name: string;
  /** Under the name: the release and serial (collectible) or the edition size (release). */
  line2: string;
  creatorLabel: string;
  creator: string;
  priceLabel: string;
  /** Formatted, e.g. ￥1,234.00; empty for none. */
  price: string;
  site: string;
  scanHint: string;
  /** Shown under the scan hint when the poster carries an invite code. */
  inviteLine: string;
  /** The page the QR code opens. */
  url: string;
  fontFamily: string;
}

/** Design tokens of apps/web/app/app.css. */
const C = { brand: '#5b4cf0', accent: '#f5b942', ink: '#1d2129', soft: '#4e5969', faint: '#646e7b', line: '#e5e6eb', canvas: '#f5f6fa', night: '#0b0c1a' };

export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Width of a character in em, as an upper bound (CJK and full-width 1, Latin ≈ 0.62). */
function charEm(ch: string): number {
  const c = ch.codePointAt(0)!;
  if (c < 0x80) return /[mwMW@%]/.test(ch) ? 0.9 : /[il.,:;'|!]/.test(ch) ? 0.32 : 0.62;
  return 1;
}
const textWidth = (s: string, size: number) => [...s].reduce((w, ch) => w + charEm(ch), 0) * size;

/** Splits `s` into at most `maxLines` lines of at most `maxWidth` px at `size`; the last one ends with … when cut. */
export function fitLines(s: string, size: number, maxWidth: number, maxLines: number): string[] {
  const chars = [...s.replace(/\s+/g, ' ').trim()];
  const lines: string[] = [];
  let cur = '';
  for (let i = 0; i < chars.length; i++) {
    const next = cur + chars[i];
    if (textWidth(next, size) <= maxWidth) {
      cur = next;
      continue;
    }
    if (lines.length === maxLines - 1) {
      let cut = cur;
      while (cut && textWidth(`${cut}…`, size) > maxWidth) cut = [...cut].slice(0, -1).join('');
      lines.push(`${cut}…`);
      return lines;
    }
    lines.push(cur);
    cur = chars[i]!;
  }
  if (cur) lines.push(cur);
  return lines;
}

/** The QR code's dark modules as one path in module units (quiet zone included) and its size. */
export function qrModules(text: string): { size: number; d: string; data: boolean[][] } {
  const qr = encode(text, { ecc: 'M', border: 2 });
  let d = '';
  qr.data.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x++;
        continue;
      }
      let run = 1;
      while (row[x + run]) run++;
      d += `M${x} ${y}h${run}v1h-${run}z`;
      x += run;
    }
  });
  return { size: qr.size, d, data: qr.data };
}

/** Where the QR code sits on the poster (tests read the modules back from the PNG there). */
export const QR_BOX = { x: 500, y: 955, size: 180 } as const;
const ART = { x: 70, y: 70, size: 610 } as const;

/** The generated artwork inlined as a nested <svg> (its ids prefixed so they cannot clash with the poster's). */
function inlineArt(svg: string): string {
  const open = /^<svg\b[^>]*>/.exec(svg);
  if (!open) return '';
  const viewBox = /viewBox="([^"]+)"/.exec(open[0])?.[1] ?? '0 0 800 800';
  const body = svg
    .slice(open[0].length)
    .replace(/<\/svg>\s*$/, '')
    .replace(/\bid="([^"]+)"/g, 'id="art-$1"')
    .replace(/url\(#([^)]+)\)/g, 'url(#art-$1)');
  return `<svg x="${ART.x}" y="${ART.y}" width="${ART.size}" height="${ART.size}" viewBox="${esc(viewBox)}" preserveAspectRatio="xMidYMid slice">${body}</svg>`;
}

export function composePoster(p: PosterInput): string {
  const { width: W, height: H } = POSTER_SIZE;
  const font = esc(p.fontFamily);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="${font}">`);
  out.push(
    `<defs><clipPath id="artclip"><rect x="${ART.x}" y="${ART.y}" width="${ART.size}" height="${ART.size}" rx="20"/></clipPath>` +
      `<linearGradient id="logo" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7c6cff"/><stop offset="1" stop-color="${C.accent}"/></linearGradient>` +
      `<linearGradient id="tile" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${C.night}"/><stop offset="1" stop-color="${C.brand}"/></linearGradient></defs>`,
  );
  out.push(`<rect width="${W}" height="${H}" fill="${C.canvas}"/>`);
  out.push(`<rect x="40" y="40" width="${W - 80}" height="${H - 80}" rx="28" fill="#fff"/>`);

  // Artwork (clipped to rounded corners); a plain tile when there is none to show.
  out.push(`<g clip-path="url(#artclip)"><rect x="${ART.x}" y="${ART.y}" width="${ART.size}" height="${ART.size}" fill="url(#tile)"/>`);
  if (p.art && 'svg' in p.art) out.push(inlineArt(p.art.svg));
  else if (p.art) out.push(`<image x="${ART.x}" y="${ART.y}" width="${ART.size}" height="${ART.size}" preserveAspectRatio="xMidYMid slice" href="${esc(p.art.dataUri)}"/>`);
  out.push('</g>');

  // Name (bold, up to two lines), second line, creator.
  let y = ART.y + ART.size + 62;
  for (const line of fitLines(p.name, 40, 610, 2)) {
    out.push(`<text x="70" y="${y}" font-size="40" font-weight="700" fill="${C.ink}">${esc(line)}</text>`);
    y += 52;
  }
  if (p.line2) {
    out.push(`<text x="70" y="${y - 4}" font-size="24" fill="${C.faint}">${esc(fitLines(p.line2, 24, 610, 1)[0] ?? '')}</text>`);
    y += 40;
  }
  out.push(`<text x="70" y="${y}" font-size="26" fill="${C.soft}">${esc(p.creatorLabel)} ${esc(fitLines(p.creator, 26, 480, 1)[0] ?? '')}</text>`);

  // Price, right under the creator, on the left.
  if (p.price) {
    out.push(`<text x="70" y="${y + 62}" font-size="24" fill="${C.faint}">${esc(p.priceLabel)}</text>`);
    out.push(`<text x="${70 + textWidth(p.priceLabel, 24) + 14}" y="${y + 64}" font-size="44" font-weight="700" fill="${C.brand}">${esc(p.price)}</text>`);
  }

  // Footer: divider, logo + site name, scan hint, invite code; the QR code on the right.
  out.push(`<line x1="70" y1="930" x2="680" y2="930" stroke="${C.line}" stroke-width="2" stroke-dasharray="8 8"/>`);
  out.push(
    `<g transform="translate(70 975) scale(1.75)"><rect width="32" height="32" rx="9" fill="url(#logo)"/>` +
      `<path d="M16 6 25 11v10l-9 5-9-5V11z" fill="none" stroke="#fff" stroke-width="2" stroke-linejoin="round"/>` +
      `<path d="M16 16v10M16 16l9-5M16 16 7 11" stroke="#fff" stroke-width="1.6" stroke-opacity=".75"/></g>`,
  );
  const [siteName, ...siteRest] = p.site.split(' · ');
  out.push(`<text x="140" y="1008" font-size="32" font-weight="700" fill="${C.ink}">${esc(siteName ?? '')}</text>`);
  if (siteRest.length) out.push(`<text x="140" y="1042" font-size="20" fill="${C.faint}">${esc(fitLines(siteRest.join(' · '), 20, 330, 1)[0] ?? '')}</text>`);
  out.push(`<text x="70" y="1098" font-size="24" fill="${C.soft}">${esc(fitLines(p.scanHint, 24, 400, 1)[0] ?? '')}</text>`);
  if (p.inviteLine) out.push(`<text x="70" y="1134" font-size="22" fill="${C.brand}">${esc(p.inviteLine)}</text>`);

  const qr = qrModules(p.url);
  const s = QR_BOX.size / qr.size;
  out.push(`<rect x="${QR_BOX.x - 6}" y="${QR_BOX.y - 6}" width="${QR_BOX.size + 12}" height="${QR_BOX.size + 12}" rx="10" fill="#fff" stroke="${C.line}" stroke-width="2"/>`);
  out.push(`<g transform="translate(${QR_BOX.x} ${QR_BOX.y}) scale(${s})" shape-rendering="crispEdges"><rect width="${qr.size}" height="${qr.size}" fill="#fff"/><path d="${qr.d}" fill="${C.night}"/></g>`);
  out.push('</svg>');
  return out.join('');
}
