import type { LotteryPaths, MintPaths } from '@cfx/contract/routes.ts';
import type { OrderDetail } from '@cfx/contract/market.ts';
import { api } from '../../../lib/api.ts';
import type { LotteryEntry, LotteryProof, MintInfo, OfficialMint, WhitelistStatus } from './types.ts';

/** A caller: the browser's api() or a loader's serverApi(request) (same arguments and result). */
export type Caller = typeof api;

/** Paths checked against the contract by type (a value import would grow the shared chunk). */
const OFFICIAL_MINT: (typeof MintPaths)['official'] = '/official/mint/';
const WHITELIST: (typeof MintPaths)['whitelist'] = '/api/user/mint/v1/whitelist';
const MINTINFO: (typeof MintPaths)['mintinfo'] = '/api/user/mint/v1/mintinfo';
const NFTMINT: (typeof MintPaths)['nftmint'] = '/api/user/mint/v1/nftmint';
const LOTTERY_ENTER: (typeof LotteryPaths)['enter'] = '/api/user/mint/v1/lottery/enter';
const LOTTERY_PROOF: (typeof LotteryPaths)['proof'] = '/official/lottery/proof/';

/** GET /official/mint/?projectId= — the public mint data of a release, or (no id) of the releases with phases not over. */
export function officialMint(call: Caller, projectId?: number | string) {
  return call<OfficialMint>(OFFICIAL_MINT, undefined, { method: 'GET', query: { projectId: projectId === undefined ? undefined : String(projectId) }, silent: true });
}

/** POST /api/user/mint/v1/mintinfo {projectId} — the current phase and what I may do in it (login). */
export function mintInfo(projectId: number) {
  return api<MintInfo>(MINTINFO, { projectId }, { silent: true });
}

/** POST /api/user/mint/v1/whitelist {projectId} — am I whitelisted, my quota and use (login). */
export function whitelistStatus(projectId: number) {
  return api<WhitelistStatus>(WHITELIST, { projectId }, { silent: true });
}

/** POST /api/user/mint/v1/nftmint {projectId, count} — the free claim; its failures skip the default message. */
export function nftmint(body: { projectId: number; count: number }) {
  return api<OrderDetail>(NFTMINT, body);
}

/** POST /api/user/mint/v1/lottery/enter {projectId} — one entry per real-name identity. */
export function enterLottery(projectId: number) {
  return api<LotteryEntry>(LOTTERY_ENTER, { projectId }, { silent: true });
}

/** GET /official/lottery/proof/?projectId= — the draw's inputs and results. */
export function lotteryProof(call: Caller, projectId: number | string) {
  return call<LotteryProof>(LOTTERY_PROOF, undefined, { method: 'GET', query: { projectId: String(projectId) }, silent: true });
}
