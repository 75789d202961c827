/** Payment shapes, type-only from the contract. Money in fen. */
import type { z } from 'zod';
import type { balance, payResult, queryAmount } from '@cfx/contract/market.ts';

export type { PayMethod } from '@cfx/contract/market.ts';
export type AmountInfo = z.infer<typeof queryAmount>;
export type PayResult = z.infer<typeof payResult>;
export type Balance = z.infer<typeof balance>;
