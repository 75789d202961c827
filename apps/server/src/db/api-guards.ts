/**
 * Compile-time guards where a status-like value crosses from the database to the API: each line
 * fails `tsc` when a union in db/schema.ts and the API enum in @cfx/contract stop having exactly
 * the same values (a new database value the API cannot show, or an API value nothing writes).
 * Types only: nothing here runs.
 */
import type { chainStatus, goodsStatus, historyActionKind } from '@cfx/contract/catalog.ts';
import type { bannerLinkType, bannerPosition, recommendItem } from '@cfx/contract/content.ts';
import type { bidStatus, listingStatus, orderCard, orderStatus, payMethod } from '@cfx/contract/market.ts';
import type { z } from 'zod';
import type { BannerLinkType, BannerPosition, BidStatus, GoodsChainStatus, GoodsHistoryAction, GoodsStatus, ListingStatus, OrderKind, OrderStatus, PayMethod, RecommendItemType } from './schema.ts';

/** true when A and B are the same set of values, false otherwise (not distributive). */
export type SameValues<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only when T is true. */
export type Assert<T extends true> = T;

export type ApiGuards = [
  // goods.status → GoodsCard.status / GoodsDetail.status (modules/catalog/repo.ts)
  Assert<SameValues<GoodsStatus, z.infer<typeof goodsStatus>>>,
  // goods.chain_status → GoodsDetail.chainStatus (modules/catalog/repo.ts)
  Assert<SameValues<GoodsChainStatus, z.infer<typeof chainStatus>>>,
  // goods_history_actions.action → HistoryAction.action (modules/catalog/list-goods-history.ts)
  Assert<SameValues<GoodsHistoryAction, z.infer<typeof historyActionKind>>>,
  // listings.status → Listing.status (modules/market/repo.ts toListing): drafts and void drafts are never shown as such
  Assert<SameValues<Exclude<ListingStatus, 'draft' | 'void'>, z.infer<typeof listingStatus>>>,
  // orders.status and order_events.{from,to}_status → OrderDetail.status / timeline (modules/orders/order-view.ts)
  Assert<SameValues<OrderStatus, z.infer<typeof orderStatus>>>,
  // orders.kind → OrderCard.kind (modules/orders/order-view.ts)
  Assert<SameValues<OrderKind, z.infer<typeof orderCard>['kind']>>,
  // orders.pay_method → OrderDetail.payMethod (modules/orders/order-view.ts)
  Assert<SameValues<PayMethod, z.infer<typeof payMethod>>>,
  // bids.status → Bid.status (modules/bids/bid-view.ts)
  Assert<SameValues<BidStatus, z.infer<typeof bidStatus>>>,
  // banners.position / link_type → Banner.position / linkType (modules/content/list-banners.ts)
  Assert<SameValues<BannerPosition, z.infer<typeof bannerPosition>>>,
  Assert<SameValues<BannerLinkType, z.infer<typeof bannerLinkType>>>,
  // recommend_items.item_type → RecommendItem.type (modules/content/list-recommend.ts)
  Assert<SameValues<RecommendItemType, z.infer<typeof recommendItem>['type']>>,
];
