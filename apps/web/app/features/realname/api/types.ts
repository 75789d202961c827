/** Real-name shapes, type-only from the contract (a value import would bundle zod). */
import type { z } from 'zod';
import type { realnameInfo } from '@cfx/contract/user.ts';

/** `{isRealname: '0' | '1', name (masked), idNumber (masked), verifiedAt}` */
export type RealnameInfo = z.infer<typeof realnameInfo>;
