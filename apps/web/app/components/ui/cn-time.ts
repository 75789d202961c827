/**
 * Times shown in China Standard Time (UTC+8, no daylight saving) on the server and in the browser
 * alike: server-rendered HTML and the hydrated page must print the same text, and the platform's
 * sale times are Beijing times. Pure, unit-tested.
 */
const CST_OFFSET_MS = 8 * 3600_000;
const pad = (n: number) => String(n).padStart(2, '0');

function cstParts(ms: number) {
  const d = new Date(ms + CST_OFFSET_MS);
  return {
    y: d.getUTCFullYear(),
    mo: pad(d.getUTCMonth() + 1),
    d: pad(d.getUTCDate()),
    h: pad(d.getUTCHours()),
    mi: pad(d.getUTCMinutes()),
    s: pad(d.getUTCSeconds()),
  };
}

const valid = (ms: number | null | undefined): ms is number => typeof ms === 'number' && Number.isFinite(ms) && ms > 0;

/** The spec's default format yyyy-MM-dd HH:mm:ss (or without seconds), Beijing time; '' for no time. */
export function formatCnDateTime(ms: number | null | undefined, seconds = true): string {
  if (!valid(ms)) return '';
  const p = cstParts(ms);
  return `${p.y}-${p.mo}-${p.d} ${p.h}:${p.mi}${seconds ? `:${p.s}` : ''}`;
}

/** yyyy-MM-dd, Beijing time; '' for no time. */
export function formatCnDate(ms: number | null | undefined): string {
  if (!valid(ms)) return '';
  const p = cstParts(ms);
  return `${p.y}-${p.mo}-${p.d}`;
}
