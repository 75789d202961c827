/**
 * Catalog shapes, type-only from the contract (a value import would bundle zod). Money is integer
 * fen, times are epoch milliseconds.
 */
import type { z } from 'zod';
import type {
  attribute,
  creatorDetail,
  historyAction,
  pricePoint,
  projectSale,
  projectStatus,
} from '@cfx/contract/catalog.ts';

export type { CreatorBrief, CreatorCard, GoodsCard, GoodsDetail, ProjectCard, ProjectDetail, ProjectStatus, SaleWindow } from '@cfx/contract/catalog.ts';
export type { Page } from '@cfx/contract/paging.ts';
export type ProjectSale = z.infer<typeof projectSale>;
export type CreatorDetail = z.infer<typeof creatorDetail>;
export type PricePoint = z.infer<typeof pricePoint>;
export type HistoryAction = z.infer<typeof historyAction>;
export type Attribute = z.infer<typeof attribute>;
/** The status filter of the releases list ('all' or one status). */
export type ProjectFilter = z.infer<typeof projectStatus> | 'all';
