/**
 * China Standard Time (UTC+8 all year, no daylight saving since 1991): the platform's time, shown
 * the same by the server, the server-rendered pages and every browser whatever its own zone, and
 * the time the payment and payout providers expect. Pure arithmetic on epoch milliseconds (no Intl,
 * no time-zone database), shared by the server and the web app.
 */

export const CHINA_OFFSET_MS = 8 * 3_600_000;
export const DAY_MS = 86_400_000;

export interface ChinaDateTimeParts {
  /** Four digits, zero-padded (`2026`). */
  year: string;
  /** Two digits each (`01`…`12`, `01`…`31`, `00`…`23`, `00`…`59`). */
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The China-time calendar fields of an instant; a RangeError for a value that is no time (NaN, ±Infinity). */
export function chinaParts(ms: number): ChinaDateTimeParts {
  if (!Number.isFinite(ms)) throw new RangeError(`not a time: ${ms}`);
  const d = new Date(Math.floor(ms) + CHINA_OFFSET_MS);
  return {
    year: pad(d.getUTCFullYear(), 4),
    month: pad(d.getUTCMonth() + 1),
    day: pad(d.getUTCDate()),
    hour: pad(d.getUTCHours()),
    minute: pad(d.getUTCMinutes()),
    second: pad(d.getUTCSeconds()),
  };
}

/** `yyyy-MM-dd HH:mm:ss` (the platform's date format), or `yyyy-MM-dd HH:mm` with `{ seconds: false }`, China time. */
export function formatChinaDateTime(ms: number, opts: { seconds?: boolean } = {}): string {
  const p = chinaParts(ms);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}${opts.seconds === false ? '' : `:${p.second}`}`;
}

/** `yyyy-MM-dd`, China time. */
export function formatChinaDate(ms: number): string {
  const p = chinaParts(ms);
  return `${p.year}-${p.month}-${p.day}`;
}

/** RFC 3339 / ISO 8601 with the offset, to the second: `2026-11-27T15:04:05+08:00` (e.g. WeChat Pay's time_expire). */
export function formatChinaIso(ms: number): string {
  const p = chinaParts(ms);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}+08:00`;
}

/** The number of the China-time day of an instant (days since 1970-01-01 China time). */
export function chinaDayNumber(ms: number): number {
  return Math.floor((ms + CHINA_OFFSET_MS) / DAY_MS);
}

/** The first millisecond (epoch ms) of the China-time day of an instant: midnight in Beijing. */
export function chinaDayStart(ms: number): number {
  return chinaDayNumber(ms) * DAY_MS - CHINA_OFFSET_MS;
}

/**
 * China-time text → epoch ms: `yyyy-MM-dd` (midnight), `yyyy-MM-dd HH:mm[:ss]` or with a `T` (a
 * `datetime-local` value). Null when it is not such a text or not a real date (`2026-02-30`).
 */
export function parseChinaDateTime(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0)) as [number, number, number, number, number, number];
  if (h > 23 || mi > 59 || s > 59) return null;
  const utc = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(utc);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return utc - CHINA_OFFSET_MS;
}

/** Full years of someone born on `birth` (a calendar date) at the instant `ms`, by the China-time date (a birthday counts from midnight in Beijing). */
export function ageOn(birth: { y: number; m: number; d: number }, ms: number): number {
  const p = chinaParts(ms);
  const y = Number(p.year), m = Number(p.month), d = Number(p.day);
  return y - birth.y - (m < birth.m || (m === birth.m && d < birth.d) ? 1 : 0);
}
