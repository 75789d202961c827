/**
 * Times shown in China Standard Time (UTC+8, no daylight saving) on the server and in the browser
 * alike: server-rendered HTML and the hydrated page must print the same text, and the platform's
 * sale times are Beijing times. The arithmetic is @cfx/protocol/china-time.ts (shared with the
 * server); here only what a page shows for "no time".
 */
import { formatChinaDate, formatChinaDateTime } from '@cfx/protocol/china-time.ts';

/** null, undefined, NaN and 0 or less are "no time" in API answers. */
const valid = (ms: number | null | undefined): ms is number => typeof ms === 'number' && Number.isFinite(ms) && ms > 0;

/** The spec's default format yyyy-MM-dd HH:mm:ss (or without seconds), Beijing time; '' for no time. */
export function formatCnDateTime(ms: number | null | undefined, seconds = true): string {
  return valid(ms) ? formatChinaDateTime(ms, { seconds }) : '';
}

/** yyyy-MM-dd, Beijing time; '' for no time. */
export function formatCnDate(ms: number | null | undefined): string {
  return valid(ms) ? formatChinaDate(ms) : '';
}
