/** Money-out shapes, type-only from the contract (packages/contract/src/payouts.ts). Money in fen. */
import type { z } from 'zod';
import type {
  areaProvince, bankItem, bindRequest, boundCard, identityPhoto, merchant, secondAccount, splitRelation, strayCredit, strayRefund, withdrawPreview, withdrawal,
} from '@cfx/contract/payouts.ts';
import type { Page } from '@cfx/contract/paging.ts';

export type SecondAccount = z.infer<typeof secondAccount>;
export type BoundCard = z.infer<typeof boundCard>;
export type BindRequest = z.infer<typeof bindRequest>;
export type IdentityPhoto = z.infer<typeof identityPhoto>;
export type Merchant = z.infer<typeof merchant>;
export type SplitRelation = z.infer<typeof splitRelation>;
export type BankItem = z.infer<typeof bankItem>;
export type AreaProvince = z.infer<typeof areaProvince>;
export type WithdrawPreview = z.infer<typeof withdrawPreview>;
export type Withdrawal = z.infer<typeof withdrawal>;
export type StrayCredit = z.infer<typeof strayCredit>;
export type StrayRefund = z.infer<typeof strayRefund>;
export type WithdrawalPage = Page<Withdrawal>;
export type StrayCreditPage = Page<StrayCredit>;
export type BindPurpose = 'bind' | 'replace' | 'mobile';
