import type { PayoutPaths as Paths } from '@cfx/contract/payouts.ts';

/**
 * The money-out paths, checked against the contract by type (a value import of the contract would pull
 * zod into the page chunk).
 */
export const PAYOUT: { [K in keyof typeof Paths]: (typeof Paths)[K] } = {
  querySecondAccount: '/payment/account/V1/querySecondAccount',
  createSecondAccound: '/payment/account/V1/createSecondAccound',
  editSecondAccountBankCard: '/payment/account/V1/editSecondAccountBankCard',
  editSecondAccountMobile: '/payment/account/V1/editSecondAccountMobile',
  unbindAccountBankCard: '/payment/account/V1/unbindAccountBankCard',
  getVerifyCode: '/payment/account/V1/getVerifyCode',
  affirmBindCard: '/payment/account/V1/affirmBindCard',
  addBindCard: '/payment/account/V1/addBindCard',
  uploadIdentity: '/payment/account/V1/uploadIdentity',
  createSecondMerchant: '/payment/merchant/V1/createSecondMerchant',
  getSecondMerchantDetail: '/payment/merchant/V1/getSecondMerchantDetail',
  updateSecondMerchant: '/payment/merchant/V1/updateSecondMerchant',
  splitAccountRelationBind: '/payment/splitAccountRelation/V1/splitAccountRelationBind',
  getSplitAccountRelationBind: '/payment/splitAccountRelation/V1/getSplitAccountRelationBind',
  bankList: '/payment/blank/dict/list',
  areaTree: '/payment/area/dict/tree/list',
  withdrawPreview: '/payment/account/V1/withdrawPreview',
  withdraw: '/payment/account/V1/withdraw',
  pageListWithdraw: '/payment/account/V1/pageListWithdraw',
  pageListStrayCredit: '/payment/account/V1/pageListStrayCredit',
  refundStrayCredit: '/payment/account/V1/refundStrayCredit',
};
