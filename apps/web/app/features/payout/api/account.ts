import { api, apiData } from '../../../lib/api.ts';
import { PAYOUT } from './paths.ts';
import type { AreaProvince, BankItem, Merchant, SecondAccount, SplitRelation } from './types.ts';

/** querySecondAccount: my payout account, card, ID photos and what is missing (spec: skips the default error message). */
export const getSecondAccount = () => apiData<SecondAccount>(PAYOUT.querySecondAccount, {});
export const createSecondAccount = (body: { provinceCode: string; cityCode: string; address: string }) => api<SecondAccount>(PAYOUT.createSecondAccound, body);
export const getMerchant = () => apiData<Merchant | null>(PAYOUT.getSecondMerchantDetail, {});
export const saveMerchant = (create: boolean, body: { shortName: string; servicePhone: string; category: string; provinceCode: string; cityCode: string; address: string }) =>
  api<Merchant>(create ? PAYOUT.createSecondMerchant : PAYOUT.updateSecondMerchant, body);
export const getSplitRelation = () => apiData<SplitRelation | null>(PAYOUT.getSplitAccountRelationBind, {}, { silent: true });
export const bindSplitRelation = () => api<SplitRelation>(PAYOUT.splitAccountRelationBind, {});
export const getBanks = () => apiData<BankItem[]>(PAYOUT.bankList, {}, { silent: true });
/** GET, static and cached for a day. */
export const getAreaTree = () => apiData<AreaProvince[]>(PAYOUT.areaTree, undefined, { method: 'GET', silent: true });
