/** Order shapes, type-only from the contract (a value import would bundle zod). Money in fen, times in ms. */
import type { z } from 'zod';
import type { dealRecord, orderCard, orderEvent } from '@cfx/contract/market.ts';

export type { OrderDetail, OrderStatus, PayMethod } from '@cfx/contract/market.ts';
export type { Page } from '@cfx/contract/paging.ts';
export type OrderCard = z.infer<typeof orderCard>;
export type OrderEvent = z.infer<typeof orderEvent>;
export type DealRecord = z.infer<typeof dealRecord>;
/** pageListNftOrder's status filter: a status or a group (pending = created/paying, active = paid/settling, done, closed). */
export type OrderFilter = 'all' | 'pending' | 'active' | 'done' | 'closed';
