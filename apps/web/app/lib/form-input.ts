/**
 * Form helpers of the catalogue editors. Times are entered and shown in China time (UTC+8, the
 * platform's time) whatever the browser's zone: a `datetime-local` value is read as China time.
 * Money is typed in yuan and sent as integer fen (yuanToFen of @cfx/protocol/money.ts).
 */
import { formatChinaDateTime, parseChinaDateTime } from '@cfx/protocol/china-time.ts';
import { fenToYuanString, yuanToFen } from '@cfx/protocol/money.ts';

/** epoch ms → 'yyyy-MM-ddTHH:mm' (China time) for a datetime-local input; '' for none. */
export function toLocalInput(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  return formatChinaDateTime(ms, { seconds: false }).replace(' ', 'T');
}

/** A datetime-local value read as China time → epoch ms; null when empty, not a time or not a real date. */
export function fromLocalInput(v: string): number | null {
  return v.includes('T') ? parseChinaDateTime(v) : null;
}

/** Integer fen → the yuan text of an input ('99.00'). */
export const fenToInput = (fen: number | null | undefined) => (fen === null || fen === undefined ? '' : fenToYuanString(fen));

/** Yuan text → fen, or null when it is not a positive amount with at most two decimals. */
export function inputToFen(text: string): number | null {
  const fen = yuanToFen(text);
  return fen !== null && fen >= 0 ? fen : null;
}

/** A whole number typed in a field, or null. */
export function intOf(text: string): number | null {
  const t = text.trim();
  return /^-?\d{1,12}$/.test(t) ? Number(t) : null;
}

/** Per-mille ↔ a percent with one decimal ('10' ↔ 100‰, '2.5' ↔ 25‰). */
export const permilleToPercent = (p: number) => String(p / 10);
export function percentToPermille(text: string): number | null {
  const t = text.trim();
  if (!/^\d{1,3}(\.\d)?$/.test(t)) return null;
  return Math.round(Number(t) * 10);
}
