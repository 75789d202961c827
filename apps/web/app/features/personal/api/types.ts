/** Personal-center shapes, type-only from the contract. Money in fen, times in ms. */
import type { z } from 'zod';
import type { listHead } from '@cfx/contract/catalog.ts';
import type { myBid, mySellItem } from '@cfx/contract/market.ts';

export type { GoodsCard } from '@cfx/contract/catalog.ts';
export type { Page } from '@cfx/contract/paging.ts';
export type CollectionHead = z.infer<typeof listHead>;
export type MySellItem = z.infer<typeof mySellItem>;
export type MyBid = z.infer<typeof myBid>;
export type AssetFilter = 'all' | 'held' | 'on_sale';
export type SaleFilter = 'on_sale' | 'sold' | 'closed';
