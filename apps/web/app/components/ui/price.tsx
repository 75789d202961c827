import { formatFen } from '@cfx/protocol/money.ts';

/**
 * Money in tabular figures with ￥ and thousands separators. `fen` is integer
 * fen; null/undefined render nothing.
 */
export function Price({ fen, className = '', testId }: { fen: number | null | undefined; className?: string; testId?: string }) {
  const text = formatFen(fen);
  if (!text) return null;
  return (
    <span className={`tabular whitespace-nowrap ${className}`} data-testid={testId}>
      {text}
    </span>
  );
}
