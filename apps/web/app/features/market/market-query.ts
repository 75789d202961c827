/**
 * The /sales URL ⇄ the market query: `?project=<release id>&min=<yuan>&max=<yuan>&sort=<order>&page=<n>`.
 * Prices are typed in yuan and sent in fen (asking price, inclusive). Pure, unit-tested.
 */
import { yuanTextToFen } from './money-input.ts';
import type { MarketSort } from './api/types.ts';

export const MARKET_SORTS: readonly MarketSort[] = ['default', 'priceAsc', 'priceDesc', 'newest', 'serialAsc'];
export const MARKET_PAGE_SIZE = 20;

export interface MarketParams {
  page: number;
  projectId?: number;
  minFen?: number;
  maxFen?: number;
  sort: MarketSort;
  /** The raw yuan texts, for the form. */
  min: string;
  max: string;
}

/** Non-negative yuan text → fen; undefined for empty or invalid input. */
export function priceParam(text: string | null | undefined): number | undefined {
  if (!text || !text.trim()) return undefined;
  const fen = yuanTextToFen(text);
  return fen !== null && fen >= 0 ? fen : undefined;
}

export function parseMarketParams(search: URLSearchParams): MarketParams {
  const pageN = Number(search.get('page'));
  const page = Number.isInteger(pageN) && pageN >= 1 && pageN <= 10_000 ? pageN : 1;
  const projectN = Number(search.get('project'));
  const projectId = Number.isSafeInteger(projectN) && projectN > 0 ? projectN : undefined;
  let minFen = priceParam(search.get('min'));
  let maxFen = priceParam(search.get('max'));
  if (minFen !== undefined && maxFen !== undefined && minFen > maxFen) [minFen, maxFen] = [maxFen, minFen];
  const rawSort = search.get('sort') ?? 'default';
  const sort = (MARKET_SORTS as readonly string[]).includes(rawSort) ? (rawSort as MarketSort) : 'default';
  return { page, projectId, minFen, maxFen, sort, min: search.get('min') ?? '', max: search.get('max') ?? '' };
}

/** The form's check before it navigates: each price empty or a valid amount, min ≤ max. */
export function priceRangeError(min: string, max: string): 'minInvalid' | 'maxInvalid' | 'order' | null {
  const lo = min.trim() ? priceParam(min) : undefined;
  const hi = max.trim() ? priceParam(max) : undefined;
  if (min.trim() && lo === undefined) return 'minInvalid';
  if (max.trim() && hi === undefined) return 'maxInvalid';
  if (lo !== undefined && hi !== undefined && lo > hi) return 'order';
  return null;
}
