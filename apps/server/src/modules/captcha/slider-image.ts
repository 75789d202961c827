import crypto from 'node:crypto';
import { encodePng } from './png.ts';

export const CAPTCHA_WIDTH = 300;
export const CAPTCHA_HEIGHT = 160;
/** The piece's bounding box (the piece image is this wide and the full height of the background). */
export const PIECE_SIZE = 44;

export interface SliderImages { bg: Buffer; piece: Buffer; answerX: number; answerY: number }

/** Secret choices (where the hole and the decoys go). */
type Rand = (n: number) => number;

/**
 * Draws one challenge. The background is a busy, colourful texture (fractal colour noise,
 * hard-edged shapes, soft dark blobs, per-pixel grain). Cut into it:
 * - the hole, where the piece was taken from: its inside turned grey at the brightness of the
 *   picture it replaces, with light and shade borrowed from elsewhere in the picture and grain (a
 *   person sees a grey gap of the piece's outline; brightness, edges and content say little),
 *   fading in over a few pixels from an outline that wanders by a pixel;
 * - in the same row, one or two decoys of plainly different outlines (disc, diamond, cross, oval),
 *   darker than the hole and ringed with light, the first one filled with the piece's own picture:
 *   "darkest", "sharpest", "same picture" and "seam" point at them rather than at the hole;
 * - in other rows, one or two grey decoys of the piece's outline, for filters that ignore the row.
 * The piece image is a transparent strip of the background's full height with the piece at its row
 * (no coordinate is sent); a light rim outlines the piece. The answer is `answerX`.
 */
export function drawSliderChallenge(opts: { seed?: Buffer } = {}): SliderImages {
  const W = CAPTCHA_WIDTH, H = CAPTCHA_HEIGHT, P = PIECE_SIZE;
  // A seed (32 bytes) makes a challenge reproducible: tests only. Otherwise the secret choices
  // come from crypto.randomInt and the grain from its own generator seeded from crypto.
  const seeded = opts.seed ? prng(opts.seed.subarray(0, 16)) : null;
  const rand: Rand = seeded ? (n) => Math.floor(seeded() * n) : (n) => crypto.randomInt(n);
  const noise = prng(opts.seed ? opts.seed.subarray(16, 32) : crypto.randomBytes(16));
  const px = drawTexture(W, H, noise, rand);
  const original = px.slice();

  const shape = randomShape(rand);
  // The hole: right of where the piece starts; decoys in its row at least a piece width apart.
  const answerX = 56 + rand(W - P - 60);
  const answerY = 6 + rand(H - P - 12);
  const taken = [answerX];
  const freeX = () => {
    for (let tries = 0; tries < 50; tries++) {
      const x = 48 + rand(W - P - 48);
      if (taken.every((t) => Math.abs(t - x) >= P + 4)) { taken.push(x); return x; }
    }
    return -1;
  };

  const piece = new Uint8Array(P * H * 4);
  const cover = feather(shape, 1.2);
  for (let y = 0; y < P; y++) {
    for (let x = 0; x < P; x++) {
      const a = cover[(y + M) * G + x + M]!;
      if (a <= 0) continue;
      const i = ((answerY + y) * W + answerX + x) * 4, o = ((answerY + y) * P + x) * 4;
      const rim = shape.dist[(y + M) * G + x + M]! < 2.5 ? 0.8 + noise() * 0.1 : 0;
      for (let c = 0; c < 3; c++) piece[o + c] = original[i + c]! + (255 - original[i + c]!) * rim;
      piece[o + 3] = Math.round(255 * a);
    }
  }

  const elsewhere = () => ({ x: rand(W - P), y: rand(H - P) });
  cut(px, W, H, shape, answerX, answerY, { grey: 0.9, flat: true, depth: 0.96 + rand(5) / 100, halo: 0, foreign: elsewhere() }, null, noise);
  const rowDecoys = 1 + rand(2);
  for (let d = 0; d < rowDecoys; d++) {
    const x = freeX();
    if (x < 0) break;
    const lure = d === 0 ? { from: original, x: answerX, y: answerY } : null;
    cut(px, W, H, decoyShape(rand), x, answerY, { grey: lure ? 0.5 : 1, flat: !lure, depth: 0.55 + rand(15) / 100, halo: -0.35 }, lure, noise);
  }
  const otherRows = 1 + rand(2);
  for (let d = 0; d < otherRows; d++) {
    for (let tries = 0; tries < 30; tries++) {
      const x = 48 + rand(W - P - 48), y = 4 + rand(H - P - 8);
      if (Math.abs(y - answerY) < P / 2 + 4) continue;
      cut(px, W, H, shape, x, y, { grey: 0.9, flat: true, depth: 0.7 + rand(30) / 100, halo: 0.1, foreign: elsewhere() }, null, noise);
      break;
    }
  }
  return { bg: encodePng(W, H, px, 3), piece: encodePng(P, H, piece), answerX, answerY };
}

/** An outline, as its signed distance field on the G×G grid (positive inside). */
interface Shape { dist: Float32Array }

/** Per side (top, right, bottom, left): no knob, a knob out of the side, a knob into it. */
const KNOB_NONE = 0, KNOB_OUT = 1;

function randomShape(rand: Rand): Shape {
  const knobs = [0, 1, 2, 3].map(() => rand(3));
  if (!knobs.some((k) => k !== KNOB_NONE)) knobs[rand(4)] = KNOB_OUT;
  return makeShape(knobs, 4 + rand(6), rand(7) - 3);
}

/** A decoy a person tells from the piece at a glance: a disc, a diamond, a cross or a wide oval. */
function decoyShape(rand: Rand): Shape {
  const kind = rand(4), c = (G - 1) / 2, r = 15 + rand(4);
  const inside = new Uint8Array(G * G);
  for (let y = 0; y < G; y++) {
    for (let x = 0; x < G; x++) {
      const dx = Math.abs(x - c), dy = Math.abs(y - c);
      const v = kind === 0 ? dx * dx + dy * dy <= r * r
        : kind === 1 ? dx + dy <= r * 1.3
        : kind === 2 ? (dx <= r * 0.45 && dy <= r * 1.1) || (dy <= r * 0.45 && dx <= r * 1.1)
        : (dx / (r * 1.2)) ** 2 + (dy / (r * 0.75)) ** 2 <= 1;
      inside[y * G + x] = v ? 1 : 0;
    }
  }
  return { dist: signedDistance(inside, G) };
}

/** Shapes are laid out on the piece's box plus a margin of M pixels on each side (room for the shadow). */
const M = 6, G = PIECE_SIZE + 2 * M;

function makeShape(knobs: number[], radius: number, shift: number): Shape {
  const P = PIECE_SIZE, lo = 7, hi = P - 1 - 7, kr = 5.5, mid = (P - 1) / 2 + shift;
  // Knob centres: top, right, bottom, left.
  const centres: [number, number][] = [[mid, lo], [hi, mid], [mid, hi], [lo, mid]];
  const body = (x: number, y: number) => {
    const cx = Math.min(Math.max(x, lo + radius), hi - radius), cy = Math.min(Math.max(y, lo + radius), hi - radius);
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius * radius;
  };
  const inside = new Uint8Array(G * G);
  for (let gy = 0; gy < G; gy++) {
    for (let gx = 0; gx < G; gx++) {
      const x = gx - M, y = gy - M;
      let v = body(x, y);
      // A plain loop: a closure per pixel would be slow under the tsx loader (it names every function).
      for (let side = 0; side < 4; side++) {
        const k = knobs[side]!, [kx, ky] = centres[side]!;
        if (k === KNOB_NONE || (x - kx) ** 2 + (y - ky) ** 2 > kr * kr) continue;
        v = k === KNOB_OUT;
      }
      inside[gy * G + gx] = v ? 1 : 0;
    }
  }
  return { dist: signedDistance(inside, G) };
}

/** Signed distance to the outline (positive inside), by a two-pass chamfer transform. */
function signedDistance(inside: Uint8Array, n: number): Float32Array {
  const run = (target: number) => {
    const d = new Float32Array(n * n).fill(1e6);
    for (let i = 0; i < n * n; i++) if (inside[i] !== target) d[i] = 0;
    const D = Math.SQRT2;
    for (let y = 0; y < n; y++) {
      for (let x = 0; x < n; x++) {
        const i = y * n + x;
        if (x > 0) d[i] = Math.min(d[i]!, d[i - 1]! + 1);
        if (y > 0) d[i] = Math.min(d[i]!, d[i - n]! + 1, x > 0 ? d[i - n - 1]! + D : 1e6, x < n - 1 ? d[i - n + 1]! + D : 1e6);
      }
    }
    for (let y = n - 1; y >= 0; y--) {
      for (let x = n - 1; x >= 0; x--) {
        const i = y * n + x;
        if (x < n - 1) d[i] = Math.min(d[i]!, d[i + 1]! + 1);
        if (y < n - 1) d[i] = Math.min(d[i]!, d[i + n]! + 1, x < n - 1 ? d[i + n + 1]! + D : 1e6, x > 0 ? d[i + n - 1]! + D : 1e6);
      }
    }
    return d;
  };
  const din = run(1), dout = run(0);
  const out = new Float32Array(n * n);
  for (let i = 0; i < n * n; i++) out[i] = inside[i] ? din[i]! - 0.5 : 0.5 - dout[i]!;
  return out;
}

/** Coverage 0..1 of each pixel of the box, soft over `soft` pixels around the outline. */
function feather(s: Shape, soft: number): Float32Array {
  const a = new Float32Array(s.dist.length);
  for (let i = 0; i < a.length; i++) a[i] = Math.min(1, Math.max(0, 0.5 + s.dist[i]! / soft));
  return a;
}

/**
 * How a cut is drawn: `grey` how far its inside turns to grey, `flat` whether that grey is the
 * shape's mean brightness (no trace of the picture underneath) rather than each pixel's own,
 * `depth` the brightness kept, `halo` how much the 3 px around it darken, `foreign` where (box
 * corner) the light and shade of a flat inside are borrowed from, so it has as much structure as
 * the picture around it without any of the piece's.
 */
interface CutStyle { grey: number; flat: boolean; depth: number; halo: number; foreign?: { x: number; y: number } }

/**
 * Cuts a shape into the picture with its box at (x0, y0): inside, grey with grain (or `fill`'s
 * picture, greyed), fading in over a few pixels from an outline that wanders by a pixel, so there is
 * neither a crisp nor a uniform edge; outside, an optional 3 px shadow (or, negative, a light ring).
 */
function cut(
  px: Uint8Array, W: number, H: number, s: Shape, x0: number, y0: number, style: CutStyle,
  fill: { from: Uint8Array; x: number; y: number } | null, noise: () => number,
) {
  const { grey, flat, depth, halo } = style;
  const lumAt = (a: Uint8Array, j: number) => 0.299 * a[j]! + 0.587 * a[j + 1]! + 0.114 * a[j + 2]!;
  let mean = 0, n = 0;
  for (let y = 0; y < G; y++) {
    for (let x = 0; x < G; x++) {
      const gx = x0 + x - M, gy = y0 + y - M;
      if (gx < 0 || gy < 0 || gx >= W || gy >= H || s.dist[y * G + x]! < 0) continue;
      mean += lumAt(px, (gy * W + gx) * 4);
      n++;
    }
  }
  mean /= Math.max(1, n);
  const fx = style.foreign?.x ?? x0, fy = style.foreign?.y ?? y0;
  const lumOf = (x: number, y: number) => lumAt(px, (Math.min(H - 1, Math.max(0, fy + y - M)) * W + Math.min(W - 1, Math.max(0, fx + x - M))) * 4);
  let fmean = 0;
  if (style.foreign) {
    for (let y = 0; y < G; y++) for (let x = 0; x < G; x++) fmean += lumOf(x, y);
    fmean /= G * G;
  }
  for (let y = 0; y < G; y++) {
    for (let x = 0; x < G; x++) {
      const gx = x0 + x - M, gy = y0 + y - M;
      if (gx < 0 || gy < 0 || gx >= W || gy >= H) continue;
      const d = s.dist[y * G + x]! + (noise() - 0.5) * 1.2;
      if (d < -4) continue;
      const i = (gy * W + gx) * 4;
      if (d < -1) {
        const k = 1 - halo * (1 + (d + 1) / 3);
        for (let c = 0; c < 3; c++) px[i + c] = clamp(px[i + c]! * k);
        continue;
      }
      const from = fill ? fill.from : px;
      const j = fill ? (Math.min(H - 1, Math.max(0, fill.y + y - M)) * W + Math.min(W - 1, Math.max(0, fill.x + x - M))) * 4 : i;
      // Colour gives way to grey within ~3 px; brightness over ~6 px, so the outline has no step of its own.
      const t = Math.min(1, Math.max(0, (d + 1) / 3)), tl = Math.min(1, Math.max(0, (d + 1) / 6));
      const r = from[j]!, g = from[j + 1]!, b = from[j + 2]!, own = lumAt(from, j);
      const l = !flat ? own : own + ((style.foreign ? mean + (lumOf(x, y) - fmean) * 0.7 : mean) - own) * tl;
      const grain = (noise() - 0.5) * 20;
      const k = (1 - (1 - depth) * t) * (1 - halo * (1 - t)), q = grey * t;
      px[i] = clamp((r + (l - r) * q) * k + grain * t);
      px[i + 1] = clamp((g + (l - g) * q) * k + grain * t);
      px[i + 2] = clamp((b + (l - b) * q) * k + grain * t);
    }
  }
}

/** The busy background: fractal colour noise, hard-edged shapes, soft dark blobs and grain. */
function drawTexture(W: number, H: number, noise: () => number, rand: Rand): Uint8Array {
  const px = new Uint8Array(W * H * 4);
  const hue = rand(360);
  const palette = [hsl(hue, 0.75, 0.55), hsl((hue + 40 + rand(80)) % 360, 0.7, 0.42), hsl((hue + 160 + rand(60)) % 360, 0.7, 0.55)];
  const octaves = [lattice(W, H, 60, noise), lattice(W, H, 22, noise), lattice(W, H, 8, noise)];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const a = octaves[0]!(x, y), b = octaves[1]!(x, y), c = octaves[2]!(x, y);
      const t = a * 0.6 + b * 0.3 + c * 0.1, u = b * 0.7 + c * 0.3;
      const i = (y * W + x) * 4;
      for (let k = 0; k < 3; k++) {
        const v = palette[0]![k]! * (1 - t) + palette[1]![k]! * t;
        px[i + k] = v * (1 - u * 0.5) + palette[2]![k]! * u * 0.5;
      }
      px[i + 3] = 255;
    }
  }
  const blend = (i: number, col: [number, number, number], a: number) => {
    for (let k = 0; k < 3; k++) px[i + k] = px[i + k]! * (1 - a) + col[k]! * a;
  };
  // Hard-edged discs, rounded boxes and bars of every brightness.
  for (let n = 0; n < 26; n++) {
    const col = hsl(rand(360), 0.5 + rand(45) / 100, 0.15 + rand(70) / 100);
    const a = 0.35 + rand(55) / 100, kind = rand(3);
    const cx = rand(W), cy = rand(H), r = 5 + rand(kind === 2 ? 60 : 26);
    const ang = (rand(180) * Math.PI) / 180, th = 2 + rand(7), cs = Math.cos(ang), sn = Math.sin(ang);
    for (let y = Math.max(0, cy - r); y < Math.min(H, cy + r); y++) {
      for (let x = Math.max(0, cx - r); x < Math.min(W, cx + r); x++) {
        const dx = x - cx, dy = y - cy;
        const hit = kind === 0 ? dx * dx + dy * dy <= r * r
          : kind === 1 ? Math.max(Math.abs(dx), Math.abs(dy)) <= r * 0.7
          : Math.abs(dx * sn - dy * cs) <= th && Math.abs(dx * cs + dy * sn) <= r;
        if (hit) blend((y * W + x) * 4, col, a);
      }
    }
  }
  // Soft dark blobs of about the piece's size: shadows that are not holes.
  for (let n = 0; n < 5; n++) {
    const cx = rand(W), cy = rand(H), r = 12 + rand(16), a = 0.2 + rand(25) / 100;
    for (let y = Math.max(0, cy - r); y < Math.min(H, cy + r); y++) {
      for (let x = Math.max(0, cx - r); x < Math.min(W, cx + r); x++) {
        const d = Math.sqrt((x - cx) ** 2 + (y - cy) ** 2) / r;
        if (d < 1) blend((y * W + x) * 4, [0, 0, 0], a * Math.min(1, (1 - d) * 3));
      }
    }
  }
  for (let i = 0; i < W * H * 4; i += 4) {
    const g = (noise() - 0.5) * 24;
    for (let k = 0; k < 3; k++) px[i + k] = clamp(px[i + k]! + g + (noise() - 0.5) * 10);
  }
  return px;
}

/** Smooth value noise on a lattice of `cell` pixels, 0..1. */
function lattice(W: number, H: number, cell: number, noise: () => number) {
  const gw = Math.ceil(W / cell) + 2, gh = Math.ceil(H / cell) + 2;
  const g = Float32Array.from({ length: gw * gh }, () => noise());
  const sm = (t: number) => t * t * (3 - 2 * t);
  return (x: number, y: number) => {
    const fx = x / cell, fy = y / cell, ix = Math.floor(fx), iy = Math.floor(fy), tx = sm(fx - ix), ty = sm(fy - iy);
    const i = iy * gw + ix;
    return (g[i]! * (1 - tx) + g[i + 1]! * tx) * (1 - ty) + (g[i + gw]! * (1 - tx) + g[i + gw + 1]! * tx) * ty;
  };
}

/** sfc32 seeded from crypto: fast grain for the texture only (never for where the hole goes). */
function prng(seed: Uint8Array): () => number {
  const v = new DataView(seed.buffer, seed.byteOffset, 16);
  let a = v.getUint32(0, true), b = v.getUint32(4, true), c = v.getUint32(8, true), d = v.getUint32(12, true);
  return () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

function clamp(v: number) { return v < 0 ? 0 : v > 255 ? 255 : v; }

function hsl(h: number, s: number, l: number): [number, number, number] {
  const c = (1 - Math.abs(2 * l - 1)) * s, x = c * (1 - Math.abs(((h / 60) % 2) - 1)), m = l - c / 2;
  const [r, g, b] = h < 60 ? [c, x, 0] : h < 120 ? [x, c, 0] : h < 180 ? [0, c, x] : h < 240 ? [0, x, c] : h < 300 ? [x, 0, c] : [c, 0, x];
  return [(r + m) * 255, (g + m) * 255, (b + m) * 255];
}
