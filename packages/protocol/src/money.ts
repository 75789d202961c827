// Money is integer fen (1 yuan = 100 fen) everywhere; these helpers only convert for display/input.
// thousands separators, two decimals, default symbol ￥, empty values show nothing.

export const DEFAULT_CURRENCY_SYMBOL = '￥';

export type FenLike = number | bigint | string;

export interface FormatFenOptions {
  /** Prefix symbol; default '￥'. Pass '' for none. */
  symbol?: string;
  /** Thousands separator; default ','. Pass '' for none. */
  separator?: string;
}

/**
 * Format integer fen for display: 123456 -> '￥1,234.56', -5 -> '-￥0.05'.
 * null, undefined and '' give ''. Throws RangeError on non-integers (money is never fractional fen).
 */
export function formatFen(fen: FenLike | null | undefined, options: FormatFenOptions = {}): string {
  if (fen === null || fen === undefined || fen === '') return '';
  const { symbol = DEFAULT_CURRENCY_SYMBOL, separator = ',' } = options;
  const value = parseFen(fen);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const yuan = (abs / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, separator);
  const cents = (abs % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${symbol}${yuan}.${cents}`;
}

/** Plain yuan string with two decimals and no symbol/separators: 123456 -> '1234.56' ('' for empty). */
export function fenToYuanString(fen: FenLike | null | undefined): string {
  return formatFen(fen, { symbol: '', separator: '' });
}

/**
 * Parse a yuan amount typed by a user ('1,234.5', '￥12', '0.05') into integer fen.
 * At most two decimals; returns null when the text is not a valid amount.
 */
export function yuanToFen(text: string): number | null {
  const cleaned = text.trim().replace(/^[￥¥]/, '').replace(/,/g, '');
  const match = /^(-?)(\d+)(?:\.(\d{0,2}))?$/.exec(cleaned);
  if (!match) return null;
  const [, sign, whole, frac = ''] = match as unknown as [string, string, string, string | undefined];
  const fen = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  if (!Number.isSafeInteger(fen)) return null;
  return sign === '-' && fen !== 0 ? -fen : fen;
}

function parseFen(fen: FenLike): bigint {
  if (typeof fen === 'bigint') return fen;
  if (typeof fen === 'number') {
    if (!Number.isSafeInteger(fen)) throw new RangeError(`fen must be an integer, got ${fen}`);
    return BigInt(fen);
  }
  const trimmed = fen.trim();
  if (!/^-?\d+$/.test(trimmed)) throw new RangeError(`fen must be an integer, got '${fen}'`);
  return BigInt(trimmed);
}
