/**
 * Market shapes, type-only from the contract (a value import would bundle zod). Money is integer
 * fen, times are epoch milliseconds.
 */
import type { z } from 'zod';
import type { filterMeta, projectOption, projectTitle } from '@cfx/contract/catalog.ts';
import type { bid, chainListingState, closeSale, cost, listing, orderDetail, preOpenSale } from '@cfx/contract/market.ts';
import type { api } from '../../../lib/api.ts';

export type { GoodsCard, GoodsDetail } from '@cfx/contract/catalog.ts';
export type { Page } from '@cfx/contract/paging.ts';
export type FilterMeta = z.infer<typeof filterMeta>;
/** A release as the findAll call lists it. */
export type ProjectOption = z.infer<typeof projectOption>;
/** A release's title card (detailsTitle). */
export type ProjectTitle = z.infer<typeof projectTitle>;
export type Cost = z.infer<typeof cost>;
export type PreOpenSale = z.infer<typeof preOpenSale>;
export type Listing = z.infer<typeof listing>;
export type CloseSaleResult = z.infer<typeof closeSale>;
export type ChainListingState = z.infer<typeof chainListingState>;
export type Bid = z.infer<typeof bid>;
export type OrderDetail = z.infer<typeof orderDetail>;

/**
 * What the operation files call: the browser's `api()` (lib/api.ts) or, in route loaders, the
 * server's `serverApi(request)` — same arguments, same result.
 */
export type Caller = typeof api;

/** The market list's sort orders (POST /goods/v1/list/index `sort`). */
export type MarketSort = 'default' | 'newest' | 'priceAsc' | 'priceDesc' | 'serialAsc';
