/** A kind's probability as a percentage with at most two decimals ("1%", "0.33%"); "0%" for an empty supply. */
export function oddsText(count: number, supply: number): string {
  if (supply <= 0) return '0%';
  const pct = Math.round((count * 10_000) / supply) / 100;
  return `${pct}%`;
}
