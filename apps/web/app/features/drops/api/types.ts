/** Drop shapes, type-only from the contract (a value import would bundle zod). */
export type { NowStint } from '@cfx/contract/drops.ts';
export type { LotteryProof, LotteryView, MintInfo, MintRelease, OfficialMint, PhaseView, WhitelistStatus, DropPhaseKind } from '@cfx/contract/drop-phases.ts';
/** POST /api/user/mint/v1/lottery/enter's answer. */
export interface LotteryEntry {
  projectId: number;
  entryNo: number;
  entries: number;
}
