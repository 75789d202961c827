import { API_BASE } from '@cfx/contract/envelope.ts';
import { ContentPaths } from '@cfx/contract/routes.ts';
import { mulberry32, hashString, pick, type Rng } from '../../util/prng.ts';

/**
 * Artwork drawn by code: every image id names a kind, a style and seeds, and the SVG is a pure
 * function of the id — nothing is stored or downloaded, any server process draws the same picture,
 * and responses can be cached forever.
 *
 * Id grammar: `<kind>-<style>-<seed>[-<variant>[-<serial>]]`
 *   kind  r release cover (1:1) · g collectible (1:1) · c creator avatar (1:1, round)
 *         cb creator banner (3:1) · n news cover (16:9) · b banner (5:2)
 *   style 0 ink mountains · 1 pixel sprite · 2 caisson (藻井) · 3 blue-and-white porcelain
 *         4 neon city · 5 koi pond · 6 solar-term landscape · 7 crystal facets
 */
export const ART_STYLES = 8;
const SIZES: Record<string, [number, number]> = { r: [800, 800], g: [800, 800], c: [240, 240], cb: [1200, 400], n: [800, 450], b: [1200, 480] };
const ID_RE = /^(r|g|c|cb|n|b)-(\d{1,2})-(\d{1,10})(?:-(\d{1,4}))?(?:-(\d{1,7}))?$/;

export interface ArtId {
  kind: keyof typeof SIZES;
  style: number;
  seed: number;
  variant: number;
  serial: number;
}

export function parseImageId(id: string): ArtId | undefined {
  const m = ID_RE.exec(id);
  if (!m) return undefined;
  const style = Number(m[2]);
  const seed = Number(m[3]);
  if (style >= ART_STYLES || seed > 0xffffffff) return undefined;
  return { kind: m[1] as ArtId['kind'], style, seed, variant: Number(m[4] ?? 0), serial: Number(m[5] ?? 0) };
}

export function imageId(kind: ArtId['kind'], style: number, seed: number, variant?: number, serial?: number): string {
  return [kind, style, seed >>> 0, ...(variant === undefined ? [] : [variant]), ...(serial === undefined ? [] : [serial])].join('-');
}
export const imageUrl = (id: string) => `${API_BASE}${ContentPaths.image}?id=${id}`;

/** Rarity of a collectible from its release seed and serial (shared by the artwork frame and the demo attributes). */
export const RARITIES = ['普通', '稀有', '史诗', '传说'] as const;
export function rarityOf(seed: number, serial: number): number {
  const x = mulberry32(hashString(`rarity:${seed}:${serial}`))();
  return x < 0.02 ? 3 : x < 0.1 ? 2 : x < 0.35 ? 1 : 0;
}

const PALETTES: Record<number, string[][]> = {
  0: [['#f4efe6', '#e3d9c6', '#2b2b2b', '#5c5c5c', '#c0392b'], ['#eef1ec', '#d5dccf', '#1d2b24', '#4a5d52', '#b03a2e'], ['#f6f0e4', '#e9d8b8', '#3b302a', '#7a6a5d', '#d35400']],
  1: [['#10121f', '#1f2440', '#ff6b6b', '#ffd93d', '#6bcB77'], ['#0b132b', '#1c2541', '#5bc0be', '#f7b801', '#f35b04'], ['#1a1423', '#372549', '#eacdc2', '#b75d69', '#774c60']],
  2: [['#0d3b3f', '#125c5f', '#e9c46a', '#f4a261', '#e76f51'], ['#2d0f3f', '#4c1d63', '#f2c14e', '#f78154', '#4d9078'], ['#102a43', '#243b53', '#d9a441', '#f0b429', '#8bd3dd']],
  3: [['#fbfcfd', '#e8eef6', '#1b3f8b', '#2f5fb3', '#8fb3e8'], ['#fdfcf8', '#eef2f7', '#0f2f6b', '#3a66b0', '#a3c1ea'], ['#f8fafc', '#e2e8f0', '#1e3a8a', '#3b82f6', '#93c5fd']],
  4: [['#0f0c29', '#302b63', '#ff00c8', '#00e5ff', '#fdf500'], ['#120136', '#035aa6', '#40bad5', '#fcbf1e', '#f73859'], ['#0b0033', '#370031', '#ff4365', '#00d9c0', '#fffc31']],
  5: [['#06324f', '#0b6e99', '#f25c05', '#f2f2f2', '#e8b923'], ['#0a3d62', '#3c6382', '#eb2f06', '#fafafa', '#f6b93b'], ['#003f5c', '#2f6690', '#ff6e40', '#ffffff', '#ffc13b']],
  6: [['#fde2e4', '#fad2e1', '#2d6a4f', '#52b788', '#e63946'], ['#fff3b0', '#e09f3e', '#335c67', '#540b0e', '#9e2a2b'], ['#caf0f8', '#90e0ef', '#0077b6', '#023e8a', '#ffb703']],
  7: [['#22223b', '#4a4e69', '#9a8c98', '#c9ada7', '#f2e9e4'], ['#03045e', '#0077b6', '#00b4d8', '#90e0ef', '#caf0f8'], ['#3d0066', '#5c0099', '#c86bfa', '#fdc500', '#ffd500']],
};
const FRAME = ['none', '#9ca3af', '#a855f7', '#f59e0b'];

const f = (n: number) => (Math.round(n * 10) / 10).toString();

interface Ctx {
  r: Rng;
  W: number;
  H: number;
  p: string[];
  lite: boolean;
  out: string[];
}

function inkMountains(c: Ctx, v: Rng) {
  const { W, H, p, out } = c;
  const sx = W * (0.2 + v() * 0.6);
  const sy = H * (0.18 + c.r() * 0.2);
  out.push(`<circle cx="${f(sx)}" cy="${f(sy)}" r="${f(Math.min(W, H) * (0.07 + v() * 0.05))}" fill="${p[4]}" opacity=".85"/>`);
  const layers = 4;
  for (let l = 0; l < layers; l++) {
    const base = H * (0.45 + l * 0.14);
    const amp = H * (0.22 - l * 0.03);
    const n = 5 + Math.floor(v() * 4);
    let d = `M0 ${f(H)} L0 ${f(base)}`;
    for (let i = 0; i <= n; i++) {
      const x = (W * (i + 0.5)) / (n + 1);
      const y = base - amp * (0.3 + v() * 0.7);
      const x2 = (W * (i + 1)) / (n + 1);
      d += ` Q${f(x)} ${f(y)} ${f(x2)} ${f(base - amp * 0.15 * c.r())}`;
    }
    d += ` L${f(W)} ${f(H)} Z`;
    out.push(`<path d="${d}" fill="${l % 2 ? p[3] : p[2]}" opacity="${f(0.25 + l * 0.18)}"/>`);
  }
  if (!c.lite) {
    for (let i = 0; i < 3; i++) {
      const bx = W * (0.15 + c.r() * 0.7);
      const by = H * (0.25 + c.r() * 0.2);
      out.push(`<path d="M${f(bx)} ${f(by)} q6 -6 12 0 q6 -6 12 0" stroke="${p[2]}" stroke-width="2" fill="none" opacity=".7"/>`);
    }
  }
}

function pixelSprite(c: Ctx, v: Rng) {
  const { W, H, p, out } = c;
  const n = 10;
  const cell = (Math.min(W, H) * 0.62) / n;
  const ox = (W - cell * n) / 2;
  const oy = (H - cell * n) / 2;
  if (!c.lite) {
    for (let i = 0; i < 40; i++) {
      const s = 2 + Math.floor(c.r() * 3);
      out.push(`<rect x="${f(c.r() * W)}" y="${f(c.r() * H)}" width="${s}" height="${s}" fill="${p[3]}" opacity="${f(0.3 + c.r() * 0.5)}"/>`);
    }
  }
  const colors = [p[2], p[3], p[4]];
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n / 2; x++) {
      const on = v() < 0.5 - Math.abs(y - n / 2) * 0.03;
      if (!on) continue;
      const col = colors[Math.floor(v() * 3)];
      for (const xx of [x, n - 1 - x]) {
        out.push(`<rect x="${f(ox + xx * cell)}" y="${f(oy + y * cell)}" width="${f(cell + 0.5)}" height="${f(cell + 0.5)}" fill="${col}"/>`);
      }
    }
  }
  const ey = oy + cell * (3 + Math.floor(v() * 2));
  out.push(`<rect x="${f(ox + cell * 3)}" y="${f(ey)}" width="${f(cell)}" height="${f(cell)}" fill="#fff"/>`);
  out.push(`<rect x="${f(ox + cell * 6)}" y="${f(ey)}" width="${f(cell)}" height="${f(cell)}" fill="#fff"/>`);
}

function caisson(c: Ctx, v: Rng) {
  const { W, H, p, out } = c;
  const cx = W / 2;
  const cy = H / 2;
  const R = Math.min(W, H) * 0.42;
  const petals = 6 + 2 * Math.floor(v() * 4);
  for (let ring = 3; ring >= 1; ring--) {
    const rr = (R * ring) / 3;
    out.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(rr)}" fill="none" stroke="${p[2 + (ring % 3)]}" stroke-width="${f(3 + ring)}" opacity=".85"/>`);
    for (let i = 0; i < petals; i++) {
      const a = (360 / petals) * i + (ring % 2 ? 180 / petals : 0);
      out.push(`<ellipse cx="${f(cx)}" cy="${f(cy - rr * 0.62)}" rx="${f(rr * 0.12)}" ry="${f(rr * 0.3)}" fill="${p[2 + ((i + ring) % 3)]}" opacity=".8" transform="rotate(${f(a)} ${f(cx)} ${f(cy)})"/>`);
    }
  }
  out.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(R * 0.12)}" fill="${p[4]}"/>`);
  if (!c.lite) {
    out.push(`<rect x="${f(cx - R * 1.1)}" y="${f(cy - R * 1.1)}" width="${f(R * 2.2)}" height="${f(R * 2.2)}" fill="none" stroke="${p[2]}" stroke-width="4" transform="rotate(45 ${f(cx)} ${f(cy)})" opacity=".5"/>`);
  }
}

function porcelain(c: Ctx, v: Rng) {
  const { W, H, p, out } = c;
  const cx = W / 2;
  const cy = H / 2;
  const R = Math.min(W, H) * 0.4;
  out.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(R)}" fill="${p[0]}" stroke="${p[2]}" stroke-width="${f(R * 0.05)}"/>`);
  out.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(R * 0.86)}" fill="none" stroke="${p[3]}" stroke-width="3"/>`);
  const waves = 10 + Math.floor(v() * 8);
  for (let i = 0; i < waves; i++) {
    const a = ((Math.PI * 2) / waves) * i;
    const x = cx + Math.cos(a) * R * 0.93;
    const y = cy + Math.sin(a) * R * 0.93;
    out.push(`<circle cx="${f(x)}" cy="${f(y)}" r="${f(R * 0.05)}" fill="none" stroke="${p[3]}" stroke-width="2"/>`);
  }
  const petals = 5 + Math.floor(v() * 4);
  for (let i = 0; i < petals; i++) {
    const a = (360 / petals) * i;
    out.push(`<ellipse cx="${f(cx)}" cy="${f(cy - R * 0.35)}" rx="${f(R * 0.16)}" ry="${f(R * 0.34)}" fill="${p[4]}" stroke="${p[2]}" stroke-width="3" transform="rotate(${f(a)} ${f(cx)} ${f(cy)})"/>`);
  }
  out.push(`<circle cx="${f(cx)}" cy="${f(cy)}" r="${f(R * 0.14)}" fill="${p[2]}"/>`);
  if (!c.lite) {
    for (let i = 0; i < 3; i++) {
      const y = cy + R * (0.5 + i * 0.08);
      out.push(`<path d="M${f(cx - R * 0.5)} ${f(y)} q${f(R * 0.125)} ${f(-R * 0.06)} ${f(R * 0.25)} 0 t${f(R * 0.25)} 0 t${f(R * 0.25)} 0 t${f(R * 0.25)} 0" fill="none" stroke="${p[3]}" stroke-width="2" opacity=".8"/>`);
    }
  }
}

function neonCity(c: Ctx, v: Rng) {
  const { W, H, p, out } = c;
  out.push(`<circle cx="${f(W * (0.2 + v() * 0.6))}" cy="${f(H * 0.25)}" r="${f(Math.min(W, H) * 0.1)}" fill="${p[4]}" opacity=".9"/>`);
  let x = 0;
  while (x < W) {
    const bw = W * (0.06 + v() * 0.1);
    const bh = H * (0.25 + v() * 0.5);
    const col = v() < 0.5 ? p[2] : p[3];
    out.push(`<rect x="${f(x)}" y="${f(H - bh)}" width="${f(bw - 3)}" height="${f(bh)}" fill="#0a0a1a" stroke="${col}" stroke-width="2"/>`);
    if (!c.lite) {
      for (let wy = H - bh + 10; wy < H - 10; wy += 18) {
        for (let wx = x + 6; wx < x + bw - 12; wx += 12) {
          if (c.r() < 0.45) out.push(`<rect x="${f(wx)}" y="${f(wy)}" width="5" height="8" fill="${col}" opacity=".8"/>`);
        }
      }
    }
    x += bw;
  }
  out.push(`<rect x="0" y="${f(H * 0.93)}" width="${W}" height="${f(H * 0.07)}" fill="${p[2]}" opacity=".35"/>`);
}

function koiPond(c: Ctx, v: Rng) {
  const { W, H, p, out } = c;
  if (!c.lite) {
    for (let i = 0; i < 6; i++) {
      out.push(`<circle cx="${f(c.r() * W)}" cy="${f(c.r() * H)}" r="${f(20 + c.r() * 80)}" fill="none" stroke="${p[3]}" stroke-width="2" opacity=".25"/>`);
    }
  }
  const fish = 2 + Math.floor(v() * 3);
  for (let i = 0; i < fish; i++) {
    const x = W * (0.2 + v() * 0.6);
    const y = H * (0.2 + v() * 0.6);
    const s = Math.min(W, H) * (0.08 + v() * 0.06);
    const a = Math.floor(v() * 360);
    const body = i % 2 ? p[2] : p[3];
    out.push(
      `<g transform="rotate(${a} ${f(x)} ${f(y)})"><ellipse cx="${f(x)}" cy="${f(y)}" rx="${f(s)}" ry="${f(s * 0.42)}" fill="${body}"/>` +
        `<path d="M${f(x - s * 0.9)} ${f(y)} l${f(-s * 0.7)} ${f(-s * 0.45)} l0 ${f(s * 0.9)} Z" fill="${body}"/>` +
        `<circle cx="${f(x + s * 0.2)}" cy="${f(y - s * 0.1)}" r="${f(s * 0.18)}" fill="${p[4]}"/>` +
        `<circle cx="${f(x + s * 0.65)}" cy="${f(y - s * 0.08)}" r="${f(s * 0.06)}" fill="#111"/></g>`,
    );
  }
  for (let i = 0; i < 3; i++) {
    const x = W * (0.1 + v() * 0.8);
    const y = H * (0.1 + v() * 0.8);
    const r = Math.min(W, H) * 0.07;
    out.push(`<path d="M${f(x)} ${f(y)} m${f(-r)} 0 a${f(r)} ${f(r)} 0 1 0 ${f(2 * r)} 0 l${f(-r)} 0 Z" fill="#2e8b57" opacity=".8"/>`);
  }
}

function solarTerm(c: Ctx, v: Rng) {
  const { W, H, p, out } = c;
  out.push(`<circle cx="${f(W * (0.3 + v() * 0.4))}" cy="${f(H * 0.38)}" r="${f(Math.min(W, H) * 0.18)}" fill="${p[4]}" opacity=".9"/>`);
  for (let l = 0; l < 3; l++) {
    const y = H * (0.62 + l * 0.1);
    out.push(`<path d="M0 ${f(y)} C${f(W * 0.3)} ${f(y - H * 0.08 * v())} ${f(W * 0.6)} ${f(y + H * 0.06)} ${f(W)} ${f(y - H * 0.04)} L${f(W)} ${f(H)} L0 ${f(H)} Z" fill="${l % 2 ? p[3] : p[2]}" opacity="${f(0.55 + l * 0.15)}"/>`);
  }
  const stems = c.lite ? 3 : 7;
  for (let i = 0; i < stems; i++) {
    const x = W * (0.05 + v() * 0.9);
    const h = H * (0.2 + v() * 0.25);
    out.push(`<path d="M${f(x)} ${f(H)} q${f(10 - v() * 20)} ${f(-h / 2)} ${f(4 - v() * 8)} ${f(-h)}" stroke="${p[2]}" stroke-width="3" fill="none"/>`);
  }
}

function crystal(c: Ctx, v: Rng) {
  const { W, H, p, out } = c;
  const n = c.lite ? 4 : 7;
  const pts: [number, number][][] = [];
  for (let y = 0; y <= n; y++) {
    pts.push([]);
    for (let x = 0; x <= n; x++) {
      const jx = x === 0 || x === n ? 0 : (v() - 0.5) * (W / n) * 0.6;
      const jy = y === 0 || y === n ? 0 : (v() - 0.5) * (H / n) * 0.6;
      pts[y]!.push([(W * x) / n + jx, (H * y) / n + jy]);
    }
  }
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const a = pts[y]![x]!, b = pts[y]![x + 1]!, cc = pts[y + 1]![x]!, d = pts[y + 1]![x + 1]!;
      out.push(`<path d="M${f(a[0])} ${f(a[1])} L${f(b[0])} ${f(b[1])} L${f(d[0])} ${f(d[1])} Z" fill="${pick(v, p)}" opacity=".9"/>`);
      out.push(`<path d="M${f(a[0])} ${f(a[1])} L${f(cc[0])} ${f(cc[1])} L${f(d[0])} ${f(d[1])} Z" fill="${pick(v, p)}" opacity=".9"/>`);
    }
  }
}

const MOTIFS = [inkMountains, pixelSprite, caisson, porcelain, neonCity, koiPond, solarTerm, crystal];

/** The SVG for an image id, or undefined for a malformed id. `w` scales the picture (and drops fine detail below 300 px). */
export function renderArtwork(id: string, w?: number): string | undefined {
  const a = parseImageId(id);
  if (!a) return undefined;
  const [W, H] = SIZES[a.kind]!;
  const outW = w ? Math.max(16, Math.min(2048, Math.round(w))) : W;
  const outH = Math.round((outW * H) / W);
  const lite = outW < 300;
  const palettes = PALETTES[a.style]!;
  const p = palettes[a.seed % palettes.length]!;
  // `v` draws the shape of the series/variant; `r` adds per-item variation (serial).
  const v = mulberry32(hashString(`${a.style}:${a.seed}:${a.variant}:${a.kind === 'g' ? 'g' : a.kind}`));
  const r = mulberry32(hashString(`${id}`));
  const out: string[] = [];
  const c: Ctx = { r, W, H, p, lite, out };
  const clip = a.kind === 'c' ? ` clip-path="url(#clip)"` : '';
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${outW}" height="${outH}">`);
  out.push(`<defs><linearGradient id="bg" x1="0" y1="0" x2="${f(0.3 + r() * 0.7)}" y2="1"><stop offset="0" stop-color="${p[0]}"/><stop offset="1" stop-color="${p[1]}"/></linearGradient>`);
  if (a.kind === 'c') out.push(`<clipPath id="clip"><circle cx="${W / 2}" cy="${H / 2}" r="${W / 2}"/></clipPath>`);
  out.push(`</defs><g${clip}><rect width="${W}" height="${H}" fill="url(#bg)"/>`);
  MOTIFS[a.style]!(c, v);
  out.push('</g>');
  if (a.kind === 'g') {
    const rarity = rarityOf(a.seed, a.serial);
    if (rarity > 0) out.push(`<rect x="8" y="8" width="${W - 16}" height="${H - 16}" rx="18" fill="none" stroke="${FRAME[rarity]}" stroke-width="${4 + rarity * 3}"/>`);
    if (!lite && a.serial > 0) {
      out.push(`<rect x="${W - 190}" y="${H - 74}" width="166" height="50" rx="25" fill="#000" opacity=".45"/>`);
      out.push(`<text x="${W - 107}" y="${H - 40}" font-family="Menlo,Consolas,monospace" font-size="28" fill="#fff" text-anchor="middle">#${String(a.serial).padStart(4, '0')}</text>`);
    }
  }
  out.push('</svg>');
  return out.join('');
}
