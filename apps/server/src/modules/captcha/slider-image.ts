import crypto from 'node:crypto';
import { encodePng } from './png.ts';

export const CAPTCHA_WIDTH = 300;
export const CAPTCHA_HEIGHT = 160;
export const PIECE_SIZE = 44;

export interface SliderImages { bg: Buffer; piece: Buffer; answerX: number; pieceY: number }

/**
 * Draws a random background (gradient, soft discs, noise), cuts a rounded square out at a
 * random offset and returns the holed background plus the piece. Everything is raster:
 * the answer is not readable from the image data structure, only by looking.
 */
export function drawSliderChallenge(rand: (n: number) => number = (n) => crypto.randomInt(n)): SliderImages {
  const W = CAPTCHA_WIDTH, H = CAPTCHA_HEIGHT, P = PIECE_SIZE;
  const px = new Uint8Array(W * H * 4);
  const hue = rand(360);
  const [r1, g1, b1] = hsl(hue, 0.55, 0.55);
  const [r2, g2, b2] = hsl((hue + 60 + rand(120)) % 360, 0.6, 0.35);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const t = (x / W + y / H) / 2;
      const i = (y * W + x) * 4;
      px[i] = r1 + (r2 - r1) * t;
      px[i + 1] = g1 + (g2 - g1) * t;
      px[i + 2] = b1 + (b2 - b1) * t;
      px[i + 3] = 255;
    }
  }
  for (let d = 0; d < 14; d++) {
    const cx = rand(W), cy = rand(H), rad = 8 + rand(36);
    const [cr, cg, cb] = hsl(rand(360), 0.6, 0.3 + rand(50) / 100);
    const a = 0.25 + rand(40) / 100;
    for (let y = Math.max(0, cy - rad); y < Math.min(H, cy + rad); y++) {
      for (let x = Math.max(0, cx - rad); x < Math.min(W, cx + rad); x++) {
        if ((x - cx) ** 2 + (y - cy) ** 2 > rad * rad) continue;
        const i = (y * W + x) * 4;
        px[i] = px[i]! * (1 - a) + cr * a;
        px[i + 1] = px[i + 1]! * (1 - a) + cg * a;
        px[i + 2] = px[i + 2]! * (1 - a) + cb * a;
      }
    }
  }
  for (let i = 0; i < W * H * 4; i += 4) {
    const n = rand(17) - 8;
    px[i] = clamp(px[i]! + n);
    px[i + 1] = clamp(px[i + 1]! + n);
    px[i + 2] = clamp(px[i + 2]! + n);
  }

  const answerX = 70 + rand(W - P - 80);
  const pieceY = 8 + rand(H - P - 16);
  const inPiece = (x: number, y: number) => {
    const r = 8;
    const cx = Math.min(Math.max(x, r), P - 1 - r), cy = Math.min(Math.max(y, r), P - 1 - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  };
  const edge = (x: number, y: number) => inPiece(x, y) && (!inPiece(x - 2, y) || !inPiece(x + 2, y) || !inPiece(x, y - 2) || !inPiece(x, y + 2));

  const piece = new Uint8Array(P * P * 4);
  for (let y = 0; y < P; y++) {
    for (let x = 0; x < P; x++) {
      const o = (y * P + x) * 4;
      if (!inPiece(x, y)) continue;
      const i = ((pieceY + y) * W + answerX + x) * 4;
      if (edge(x, y)) {
        piece.set([255, 255, 255, 230], o);
      } else {
        piece.set([px[i]!, px[i + 1]!, px[i + 2]!, 255], o);
      }
      // The hole: darken and outline.
      if (edge(x, y)) px.set([255, 255, 255, 255], i);
      else { px[i] = px[i]! * 0.35; px[i + 1] = px[i + 1]! * 0.35; px[i + 2] = px[i + 2]! * 0.35; }
    }
  }
  return { bg: encodePng(W, H, px), piece: encodePng(P, P, piece), answerX, pieceY };
}

function clamp(v: number) { return v < 0 ? 0 : v > 255 ? 255 : v; }

function hsl(h: number, s: number, l: number): [number, number, number] {
  const c = (1 - Math.abs(2 * l - 1)) * s, x = c * (1 - Math.abs(((h / 60) % 2) - 1)), m = l - c / 2;
  const [r, g, b] = h < 60 ? [c, x, 0] : h < 120 ? [x, c, 0] : h < 180 ? [0, c, x] : h < 240 ? [0, x, c] : h < 300 ? [x, 0, c] : [c, 0, x];
  return [(r + m) * 255, (g + m) * 255, (b + m) * 255];
}
