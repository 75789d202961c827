/**
 * Form helpers of the catalogue editors. Times are entered and shown in China time (UTC+8, the
 * platform's time) whatever the browser's zone: a `datetime-local` value is read as China time.
 * Money is typed in yuan and sent as integer fen (yuanToFen of @cfx/protocol/money.ts).
 */
import { fenToYuanString, yuanToFen } from '@cfx/protocol/money.ts';

const CST = 8 * 3600_000;

/** epoch ms → 'yyyy-MM-ddTHH:mm' (China time) for a datetime-local input; '' for none. */
export function toLocalInput(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  return new Date(ms + CST).toISOString().slice(0, 16);
}

/** A datetime-local value read as China time → epoch ms; null when empty or not a time. */
export function fromLocalInput(v: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(v.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0)) - CST;
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
