/**
 * The API calls of blind boxes, compose and shift / gifts (docs/api.md "Blind boxes, compose,
 * shift and gifts"). Paths are checked against the contract by type only (a value import would
 * grow the shared chunk). Failures are silent here: the flows show the server's message in the step.
 */
import type { GoodsFlowPaths } from '@cfx/contract/routes.ts';
import { api } from '../api.ts';
import type { BoxInfo, Chip, ChipGroup, ComposeConsent, ComposeRecord, ComposeRule, FragmentList, GiftReceiver, GoodsTransfer, Opening, Page, ShiftStatus, TransferIntent } from './types.ts';

/** The browser's `api()` or a route loader's server caller: same arguments, same result. */
type Caller = typeof api;
type P = typeof GoodsFlowPaths;
const BOX_INFO: P['boxInfo'] = '/goods/v1/box/info/';
const OPEN_BOX: P['openBox'] = '/goods/v1/openBox/';
const OPEN_BOX_CONFIRM: P['openBoxConfirm'] = '/goods/v1/openBox/confirm';
const CHIP: P['chip'] = '/goods/v1/chip';
const CHIP_ALL: P['chipAll'] = '/goods/v1/chipAll';
const COMPOSE_RULE: P['composeRule'] = '/api/compose/v1/composerule';
const FRAGMENT_LIST: P['getFragmentList'] = '/api/compose/v1/getfragmentlist';
const SELECT_FRAGMENT: P['selectFragment'] = '/api/compose/v1/selectfragment';
const CONFIRM_COMPOSE: P['confirmCompose'] = '/api/compose/v1/confirmcompose';
const SUBMIT_COMPOSE: P['submitCompose'] = '/api/compose/v1/submitcompose';
const COMPOSE_RECORD: P['composeRecord'] = '/api/compose/v1/composerecord';
const SHIFT_STATUS: P['queryShiftStatus'] = '/goods/v1/queryShiftStatus/';
const SHIFT: P['shift'] = '/goods/v1/shift';
const GIFT: P['gift'] = '/goods/v1/gift';
const GIFT_RECEIVER: P['giftReceiver'] = '/goods/v1/gift/receiver';
const SHIFT_NOTIFY: P['shiftNotify'] = '/goods/v1/shift/notify';
const SHIFT_RECORD: P['shiftRecord'] = '/goods/v1/shift/record';

/** GET /goods/v1/box/info/?projectId= — null data for a release that is not a box release. Works in loaders (serverApi). */
export function getBoxInfo(call: Caller, projectId: number | string) {
  return call<BoxInfo | null>(BOX_INFO, undefined, { method: 'GET', query: { projectId: String(projectId) }, silent: true });
}
export const openBox = (goodsId: number, retry = false) => api<Opening>(OPEN_BOX, undefined, { method: 'GET', query: { goodsId, retry: retry ? '1' : undefined }, silent: true });
export const confirmOpenBox = (body: { goodsId: number; signature: string }) => api<Opening>(OPEN_BOX_CONFIRM, body, { silent: true });

export const listChip = (body: { projectId: number; pageNum: number; pageSize: number }) => api<Chip>(CHIP, body, { silent: true });
export const listChipAll = () => api<ChipGroup[]>(CHIP_ALL, {}, { silent: true });
export const listComposeRules = (body: { ruleId?: number; pageNum: number; pageSize: number }) => api<Page<ComposeRule>>(COMPOSE_RULE, body, { silent: true });
export const getFragmentList = (ruleId: number) => api<FragmentList>(FRAGMENT_LIST, { ruleId }, { silent: true });
export const selectFragments = (body: { ruleId: number; goodsIds: number[] }) => api<ComposeRecord>(SELECT_FRAGMENT, body, { silent: true });
export const confirmCompose = (body: { composeNo: string }) => api<ComposeConsent>(CONFIRM_COMPOSE, body, { silent: true });
export const submitCompose = (body: { composeNo: string; signature: string }) => api<ComposeRecord>(SUBMIT_COMPOSE, body, { silent: true });
export const listComposeRecords = (body: { composeNo?: string; pageNum: number; pageSize: number }) => api<Page<ComposeRecord>>(COMPOSE_RECORD, body, { silent: true });

export const getShiftStatus = (goodsId: number) => api<ShiftStatus>(SHIFT_STATUS, undefined, { method: 'GET', query: { goodsId }, silent: true });
export const startShift = (body: { goodsId: number; toAddress: string }) => api<TransferIntent>(SHIFT, body, { silent: true });
export const startGift = (body: { goodsId: number; mobile?: string; accountId?: string }) => api<TransferIntent>(GIFT, body, { silent: true });
export const findGiftReceiver = (body: { mobile?: string; accountId?: string }) => api<GiftReceiver>(GIFT_RECEIVER, body, { silent: true });
export const notifyTransfer = (body: { transferNo: string; txHash?: string }) => api<GoodsTransfer>(SHIFT_NOTIFY, body, { silent: true });
export const listTransfers = (body: { kind?: 'shift' | 'gift' | 'all'; pageNum: number; pageSize: number }) => api<Page<GoodsTransfer>>(SHIFT_RECORD, body, { silent: true });
