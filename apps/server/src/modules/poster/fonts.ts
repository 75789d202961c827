import fs from 'node:fs';
import type { RasterFonts } from '../content/index.ts';

/**
 * Fonts of the share posters. resvg draws text only with the font files it is given (no system
 * lookup, which is slow and differs per machine), so the poster names the families below and loads
 * the first CJK font found in well-known places: Noto Sans CJK (Debian/Ubuntu `fonts-noto-cjk`,
 * which `npm test` installs; Fedora/Arch `google-noto-sans-cjk-fonts` / `noto-fonts-cjk`),
 * WenQuanYi Zen Hei, Droid Sans Fallback. Without any of them the poster still renders: Latin text
 * in DejaVu Sans when present, CJK characters left out (a warning is logged once) — install
 * fonts-noto-cjk on servers that render posters (docs/operations.md).
 */
const CJK: { family: string; files: string[] }[] = [
  {
    family: 'Noto Sans CJK SC',
    files: [
      '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
      '/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc',
      '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
      '/usr/share/fonts/noto-cjk/NotoSansCJK-Bold.ttc',
      '/usr/share/fonts/google-noto-sans-cjk-fonts/NotoSansCJK-Regular.ttc',
      '/usr/share/fonts/google-noto-sans-cjk-fonts/NotoSansCJK-Bold.ttc',
    ],
  },
  { family: 'WenQuanYi Zen Hei', files: ['/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc'] },
  { family: 'Droid Sans Fallback', files: ['/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf'] },
];
const LATIN = { family: 'DejaVu Sans', files: ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf'] };
const MONO = ['/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf'];

export interface PosterFonts extends RasterFonts {
  /** The CSS font-family list the poster's text uses. */
  family: string;
  /** Whether a CJK font was found. */
  cjk: boolean;
}

let found: PosterFonts | undefined;

export function posterFonts(): PosterFonts {
  if (found) return found;
  const existing = (files: string[]) => files.filter((f) => fs.existsSync(f));
  const cjk = CJK.map((c) => ({ family: c.family, files: existing(c.files) })).find((c) => c.files.length > 0);
  const latin = existing(LATIN.files);
  const mono = existing(MONO);
  const primary = cjk?.family ?? (latin.length ? LATIN.family : 'sans-serif');
  found = {
    fontFiles: [...(cjk?.files ?? []), ...latin, ...mono],
    defaultFontFamily: primary,
    ...(mono.length ? { monospaceFamily: 'DejaVu Sans Mono' } : {}),
    family: [cjk?.family, latin.length ? LATIN.family : undefined].filter(Boolean).map((f) => `'${f}'`).concat('sans-serif').join(', '),
    cjk: Boolean(cjk),
  };
  return found;
}
