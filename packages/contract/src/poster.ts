import { z } from 'zod';
import { idParam } from './paging.ts';

/**
 * Share posters (issue #11, shared pieces "share" and "QR code"): GET
 * /official/poster/?type=goods|project&id=&inviteCode=&lang= answers a PNG (POSTER_SIZE) of the
 * collectible or release with a QR code to its page; failures are the envelope (1001 / 1404).
 */
export const POSTER_TYPES = ['goods', 'project'] as const;
export type PosterType = (typeof POSTER_TYPES)[number];
/** The poster's pixel size (a phone-screen ratio, 750 px wide like most share posters). */
export const POSTER_SIZE = { width: 750, height: 1200 } as const;

export const posterQuery = z.object({
  type: z.enum(POSTER_TYPES),
  id: idParam,
  /** The sharer's invite code: the QR link then carries ?inviteCode= (register auto-opens with it). */
  inviteCode: z.string().max(16).nullish(),
  /** The poster's language (default: the lang header / cookie, else zh). */
  lang: z.enum(['zh', 'en']).nullish(),
  /** svg: the composed SVG itself (debugging and tests); default png. */
  fmt: z.enum(['png', 'svg']).nullish(),
});
export type PosterQuery = z.input<typeof posterQuery>;
