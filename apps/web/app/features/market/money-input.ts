/**
 * Yuan text ⇄ integer fen for the market's price inputs. The same rules as @cfx/protocol/money.ts
 * (`yuanToFen`, `fenToYuanString`), kept here on purpose: money.ts shares a chunk with the price
 * display that every page loads, and using more of its exports here would grow that chunk.
 */

/** '1,234.5', '￥12', '0.05' → fen; at most two decimals; null when the text is not an amount. */
export function yuanTextToFen(text: string): number | null {
  const cleaned = text.trim().replace(/^[￥¥]/, '').replace(/,/g, '');
  const match = /^(\d+)(?:\.(\d{0,2}))?$/.exec(cleaned);
  if (!match) return null;
  const fen = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(fen) ? fen : null;
}

/** 123456 → '1234.56' (no symbol, no separators). */
export function fenToYuanText(fen: number): string {
  const abs = Math.abs(Math.trunc(fen));
  return `${fen < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
