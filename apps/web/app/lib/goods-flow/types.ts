/**
 * Shapes of blind boxes, compose and shift / gifts, type-only from the contract (a value import
 * would bundle zod). Shared by features/boxes, features/compose and features/shift.
 */
import type { z } from 'zod';
import type {
  boxInfo,
  boxKind,
  chip,
  chipGroup,
  composeConsent,
  composeRecord,
  composeRule,
  consumeTypedData,
  fragmentItem,
  fragmentList,
  giftReceiver,
  goodsTransfer,
  opening,
  shiftStatus,
  transferIntent,
} from '@cfx/contract/goods-flows.ts';

export type { Page } from '@cfx/contract/paging.ts';
export type { GoodsCard } from '@cfx/contract/catalog.ts';
export type ConsumeTypedData = z.infer<typeof consumeTypedData>;
export type BoxInfo = z.infer<typeof boxInfo>;
export type BoxKind = z.infer<typeof boxKind>;
export type Opening = z.infer<typeof opening>;
export type FragmentItem = z.infer<typeof fragmentItem>;
export type ChipGroup = z.infer<typeof chipGroup>;
export type Chip = z.infer<typeof chip>;
export type ComposeRule = z.infer<typeof composeRule>;
export type FragmentList = z.infer<typeof fragmentList>;
export type ComposeRecord = z.infer<typeof composeRecord>;
export type ComposeConsent = z.infer<typeof composeConsent>;
export type ShiftStatus = z.infer<typeof shiftStatus>;
export type GoodsTransfer = z.infer<typeof goodsTransfer>;
export type TransferIntent = z.infer<typeof transferIntent>;
export type GiftReceiver = z.infer<typeof giftReceiver>;

/** What opening a blind box starts from: the box collectible (the personal center's asset tile). */
export interface OpenBoxRequest {
  goods: { id: number; name: string; image: string; projectId: number };
}
