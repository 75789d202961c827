import zlib from 'node:zlib';

/**
 * A naive slider-captcha solver: the obvious attacks a script writer tries on the two PNGs of a
 * challenge. Used by the tests to show that the images do not give the answer away to simple image
 * analysis (it solves the generator of before issue 17 nearly every time).
 */

export interface Image { w: number; h: number; rgba: Uint8Array }

/** Decodes an 8-bit RGB or RGBA, non-interlaced PNG (all five row filters). */
export function decodePng(buf: Buffer): Image {
  if (buf.subarray(1, 4).toString() !== 'PNG') throw new Error('not a PNG');
  let off = 8, w = 0, h = 0, type = 0;
  const idat: Buffer[] = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off);
    const kind = buf.subarray(off + 4, off + 8).toString('ascii');
    const data = buf.subarray(off + 8, off + 8 + len);
    if (kind === 'IHDR') {
      w = data.readUInt32BE(0); h = data.readUInt32BE(4); type = data[9]!;
      if (data[8] !== 8 || (type !== 6 && type !== 2) || data[12] !== 0) throw new Error('unsupported PNG');
    } else if (kind === 'IDAT') idat.push(data);
    off += 12 + len;
  }
  const bpp = type === 6 ? 4 : 3;
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = w * bpp;
  const out = new Uint8Array(w * h * bpp);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)]!;
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i]!;
      const a = i >= bpp ? out[y * stride + i - bpp]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + i]! : 0;
      const c = i >= bpp && y > 0 ? out[(y - 1) * stride + i - bpp]! : 0;
      const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
      const pred = f === 0 ? 0 : f === 1 ? a : f === 2 ? b : f === 3 ? (a + b) >> 1 : pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      out[y * stride + i] = (x + pred) & 0xff;
    }
  }
  if (bpp === 4) return { w, h, rgba: out };
  const rgba = new Uint8Array(w * h * 4);
  for (let i = 0, j = 0; i < w * h; i++, j += 3) rgba.set([out[j]!, out[j + 1]!, out[j + 2]!, 255], i * 4);
  return { w, h, rgba };
}

export const fromDataUrl = (s: string) => decodePng(Buffer.from(s.replace(/^data:image\/png;base64,/, ''), 'base64'));

/** The piece as the attacker sees it: its mask (alpha > 127), its pixels and the row it sits on. */
interface Piece { mw: number; mh: number; top: number; mask: Uint8Array; rgb: Float32Array }

/** `pieceY` when the challenge gives it (old format: the piece image is the piece only), else read from the alpha. */
function readPiece(piece: Image, pieceY?: number): Piece {
  let top = piece.h, bottom = -1;
  for (let y = 0; y < piece.h; y++) {
    for (let x = 0; x < piece.w; x++) {
      if (piece.rgba[(y * piece.w + x) * 4 + 3]! > 127) { top = Math.min(top, y); bottom = Math.max(bottom, y); }
    }
  }
  if (bottom < 0) { top = 0; bottom = piece.h - 1; }
  const mw = piece.w, mh = bottom - top + 1;
  const mask = new Uint8Array(mw * mh), rgb = new Float32Array(mw * mh * 3);
  for (let y = 0; y < mh; y++) {
    for (let x = 0; x < mw; x++) {
      const i = ((top + y) * piece.w + x) * 4;
      mask[y * mw + x] = piece.rgba[i + 3]! > 127 ? 1 : 0;
      rgb.set([piece.rgba[i]!, piece.rgba[i + 1]!, piece.rgba[i + 2]!], (y * mw + x) * 3);
    }
  }
  return { mw, mh, top: pieceY ?? top, mask, rgb };
}

const lum = (img: Image) => {
  const L = new Float32Array(img.w * img.h);
  for (let i = 0; i < L.length; i++) L[i] = 0.299 * img.rgba[i * 4]! + 0.587 * img.rgba[i * 4 + 1]! + 0.114 * img.rgba[i * 4 + 2]!;
  return L;
};

/** Pixels of the mask that touch a pixel outside it (the outline), and the pixels just outside. */
function outline(p: Piece) {
  const inside = (x: number, y: number) => x >= 0 && y >= 0 && x < p.mw && y < p.mh && p.mask[y * p.mw + x] === 1;
  const border: [number, number][] = [], outer: [number, number, number, number][] = [], core: [number, number][] = [];
  for (let y = 0; y < p.mh; y++) {
    for (let x = 0; x < p.mw; x++) {
      if (!inside(x, y)) continue;
      let edge = false;
      for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]] as const) {
        if (!inside(x + dx, y + dy)) { edge = true; outer.push([x, y, x + dx * 2, y + dy * 2]); }
      }
      if (edge) border.push([x, y]); else core.push([x, y]);
    }
  }
  return { border, outer, core };
}

function argBest(n: number, score: (x: number) => number, mode: 'max' | 'min') {
  let best = 0, bestScore = mode === 'max' ? -Infinity : Infinity;
  for (let x = 0; x < n; x++) {
    const s = score(x);
    if (mode === 'max' ? s > bestScore : s < bestScore) { best = x; bestScore = s; }
  }
  return best;
}

export type Attack = (bg: Image, piece: Image, pieceY?: number) => number;

/** Outline colour: the place where the most near-white pixels lie under the piece's outline. */
export const whiteOutline: Attack = (bg, pieceImg, pieceY) => {
  const p = readPiece(pieceImg, pieceY), { border } = outline(p);
  const white = (x: number, y: number) => {
    const i = (y * bg.w + x) * 4;
    return y >= 0 && y < bg.h && bg.rgba[i]! >= 235 && bg.rgba[i + 1]! >= 235 && bg.rgba[i + 2]! >= 235 ? 1 : 0;
  };
  return argBest(bg.w - p.mw + 1, (x) => border.reduce((s, [bx, by]) => s + white(x + bx, p.top + by), 0), 'max');
};

/** Strongest columns: the pair of columns (piece width apart) with the most horizontal brightness change in the piece's rows. */
export const columnContrast: Attack = (bg, pieceImg, pieceY) => {
  const p = readPiece(pieceImg, pieceY), L = lum(bg);
  const col = new Float32Array(bg.w);
  for (let x = 1; x < bg.w; x++) {
    for (let y = Math.max(0, p.top); y < Math.min(bg.h, p.top + p.mh); y++) col[x] += Math.abs(L[y * bg.w + x]! - L[y * bg.w + x - 1]!);
  }
  return argBest(bg.w - p.mw + 1, (x) => col[x]! + col[Math.min(bg.w - 1, x + p.mw)]!, 'max');
};

/** Darkest cut: the piece-shaped area that is darkest relative to the ring just around it. */
export const darkestCut: Attack = (bg, pieceImg, pieceY) => {
  const p = readPiece(pieceImg, pieceY), L = lum(bg), { core, outer } = outline(p);
  const at = (x: number, y: number) => L[Math.min(bg.h - 1, Math.max(0, y)) * bg.w + Math.min(bg.w - 1, Math.max(0, x))]!;
  return argBest(bg.w - p.mw + 1, (x) => {
    let inner = 0, ring = 0;
    for (const [cx, cy] of core) inner += at(x + cx, p.top + cy);
    for (const [, , ox, oy] of outer) ring += at(x + ox, p.top + oy);
    return inner / core.length - ring / outer.length;
  }, 'min');
};

/** Outline template: where the edge strength along the piece's outline stands out most from its inside. */
export const outlineTemplate: Attack = (bg, pieceImg, pieceY) => {
  const p = readPiece(pieceImg, pieceY), L = lum(bg), { border, core } = outline(p);
  const G = new Float32Array(bg.w * bg.h);
  for (let y = 1; y < bg.h - 1; y++) {
    for (let x = 1; x < bg.w - 1; x++) {
      const i = y * bg.w + x;
      G[i] = Math.hypot(L[i + 1]! - L[i - 1]!, L[i + bg.w]! - L[i - bg.w]!);
    }
  }
  const at = (x: number, y: number) => G[Math.min(bg.h - 1, Math.max(0, y)) * bg.w + x]!;
  return argBest(bg.w - p.mw + 1, (x) => {
    let e = 0, c = 0;
    for (const [bx, by] of border) e += at(x + bx, p.top + by);
    for (const [cx, cy] of core) c += at(x + cx, p.top + cy);
    return e / border.length - c / core.length;
  }, 'max');
};

/** Content match: normalised cross-correlation of the piece's pixels with the background under its mask. */
export const contentMatch: Attack = (bg, pieceImg, pieceY) => {
  const p = readPiece(pieceImg, pieceY);
  const pts: number[] = [];
  for (let i = 0; i < p.mask.length; i++) if (p.mask[i]) pts.push(i);
  const n = pts.length * 3;
  let pm = 0;
  for (const i of pts) pm += p.rgb[i * 3]! + p.rgb[i * 3 + 1]! + p.rgb[i * 3 + 2]!;
  pm /= n;
  return argBest(bg.w - p.mw + 1, (x) => {
    let bm = 0;
    const idx = (i: number) => ((Math.min(bg.h - 1, p.top + Math.floor(i / p.mw))) * bg.w + x + (i % p.mw)) * 4;
    for (const i of pts) { const j = idx(i); bm += bg.rgba[j]! + bg.rgba[j + 1]! + bg.rgba[j + 2]!; }
    bm /= n;
    let sxy = 0, sxx = 0, syy = 0;
    for (const i of pts) {
      const j = idx(i);
      for (let c = 0; c < 3; c++) {
        const a = p.rgb[i * 3 + c]! - pm, b = bg.rgba[j + c]! - bm;
        sxy += a * b; sxx += a * a; syy += b * b;
      }
    }
    return sxy / Math.sqrt(sxx * syy + 1e-9);
  }, 'max');
};

/** Seam: where the piece's outline pixels continue best into the background just outside the hole. */
export const seamMatch: Attack = (bg, pieceImg, pieceY) => {
  const p = readPiece(pieceImg, pieceY), { outer } = outline(p);
  return argBest(bg.w - p.mw + 1, (x) => {
    let d = 0;
    for (const [ix, iy, ox, oy] of outer) {
      const gx = Math.min(bg.w - 1, Math.max(0, x + ox)), gy = Math.min(bg.h - 1, Math.max(0, p.top + oy));
      const j = (gy * bg.w + gx) * 4, k = (iy * p.mw + ix) * 3;
      d += Math.abs(bg.rgba[j]! - p.rgb[k]!) + Math.abs(bg.rgba[j + 1]! - p.rgb[k + 1]!) + Math.abs(bg.rgba[j + 2]! - p.rgb[k + 2]!);
    }
    return d;
  }, 'min');
};

export const attacks: Record<string, Attack> = { whiteOutline, columnContrast, darkestCut, outlineTemplate, contentMatch, seamMatch };
