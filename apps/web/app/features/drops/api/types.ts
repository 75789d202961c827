/** Drop shapes, type-only from the contract (a value import would bundle zod). */
export type { NowStint } from '@cfx/contract/drops.ts';
