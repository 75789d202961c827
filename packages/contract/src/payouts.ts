import { z } from 'zod';
import { envelope } from './envelope.ts';
import { idParam, intLike, page, paging, safeText } from './paging.ts';

/**
 * Money out (issue #11, docs/payouts.md): the payout account ("second account", 二级账户 — the user's
 * sub-merchant at the payout provider, where withdrawals are paid from), bank cards with the
 * 4-element check, withdrawals of the platform balance, the creator's merchant and split relation,
 * the bank and region dictionaries, and refunds of stray payments to their original method.
 *
 * The spec names the paths; the payloads are designed here. Money is integer fen, times epoch ms.
 * Card numbers, ID numbers and phones are only ever sent by the user; answers show them masked.
 */
export const PayoutPaths = {
  querySecondAccount: '/payment/account/V1/querySecondAccount',
  /** Spelled as in the spec. */
  createSecondAccound: '/payment/account/V1/createSecondAccound',
  editSecondAccountBankCard: '/payment/account/V1/editSecondAccountBankCard',
  editSecondAccountMobile: '/payment/account/V1/editSecondAccountMobile',
  unbindAccountBankCard: '/payment/account/V1/unbindAccountBankCard',
  getVerifyCode: '/payment/account/V1/getVerifyCode',
  affirmBindCard: '/payment/account/V1/affirmBindCard',
  addBindCard: '/payment/account/V1/addBindCard',
  /** POST multipart (one image part), query `side=front|back`. */
  uploadIdentity: '/payment/account/V1/uploadIdentity',
  createSecondMerchant: '/payment/merchant/V1/createSecondMerchant',
  getSecondMerchantDetail: '/payment/merchant/V1/getSecondMerchantDetail',
  updateSecondMerchant: '/payment/merchant/V1/updateSecondMerchant',
  splitAccountRelationBind: '/payment/splitAccountRelation/V1/splitAccountRelationBind',
  getSplitAccountRelationBind: '/payment/splitAccountRelation/V1/getSplitAccountRelationBind',
  /** The bank list ("blank" as in the spec). */
  bankList: '/payment/blank/dict/list',
  /** GET — provinces and their prefecture-level cities. */
  areaTree: '/payment/area/dict/tree/list',
  /** Not in the spec: the fee, net amount and limits of a withdrawal before it is confirmed. */
  withdrawPreview: '/payment/account/V1/withdrawPreview',
  /** Not in the spec: {amountFen, smsCode} — withdraw to the bound card. */
  withdraw: '/payment/account/V1/withdraw',
  /** Not in the spec: my withdrawals, newest first. */
  pageListWithdraw: '/payment/account/V1/pageListWithdraw',
  /** Not in the spec: payments credited to my balance because they could not pay their order, with their refund. */
  pageListStrayCredit: '/payment/account/V1/pageListStrayCredit',
  /** Not in the spec: {paymentId} — refund such a credit to the original payment method. */
  refundStrayCredit: '/payment/account/V1/refundStrayCredit',
} as const;

/** Asynchronous notifies of the payout providers and of payment-provider refunds (outside the gateway, like the payment notifies). */
export const PayoutNotifyPaths = {
  sandbox: '/mvapi/notify/payout/sandbox',
  yeepay: '/mvapi/notify/payout/yeepay',
  refundSandbox: '/mvapi/notify/refund/sandbox',
} as const;

/** Bank logos (SVG badges drawn by code), outside the gateway: `/media/banks/<code>.svg`. */
export const BANK_LOGO_PREFIX = '/media/banks/';

const text = (max: number) => safeText(max).nullish().transform((v) => (v ?? '').trim());
const captcha = safeText(512);
const code6 = safeText(16).transform((v) => v.trim());

export const PAYOUT_ACCOUNT_STATES = ['none', 'opening', 'active', 'rejected'] as const;
export type PayoutAccountState = (typeof PAYOUT_ACCOUNT_STATES)[number];
export const WITHDRAWAL_STATUSES = ['requested', 'processing', 'succeeded', 'failed'] as const;
export type WithdrawalStatus = (typeof WITHDRAWAL_STATUSES)[number];
export const REFUND_STATUSES = ['requested', 'processing', 'succeeded', 'failed'] as const;
export type StrayRefundStatus = (typeof REFUND_STATUSES)[number];
/** Why a payment was credited to the balance instead of paying its order. */
export const STRAY_REASONS = ['duplicate', 'late', 'wrong_amount'] as const;
export type StrayReason = (typeof STRAY_REASONS)[number];
export const MERCHANT_CATEGORIES = ['art', 'design', 'music', 'photo', 'culture', 'other'] as const;

/* ───────────── cards ───────────── */

/** The 4 elements: name and ID number (must be the verified real-name person), card number, the phone reserved at the bank. */
export const addBindCardBody = z.object({
  name: text(64),
  idNumber: text(32),
  cardNo: text(40),
  mobile: text(32),
  NECaptchaValidate: captcha,
});
/** editSecondAccountMobile: a new reserved phone for the bound card (checked with the bank again, code to the new phone). */
export const editMobileBody = z.object({ mobile: text(32), NECaptchaValidate: captcha });
/** Resend the code of a pending binding request (60 s apart, daily caps, like every SMS). */
export const getVerifyCodeBody = z.object({ bindId: safeText(64), NECaptchaValidate: captcha });
export const affirmBindCardBody = z.object({ bindId: safeText(64), smsCode: code6 });
/** unbind: a security code sent to the account's own phone (/api/user/v1/mobile/smscode). */
export const unbindCardBody = z.object({ smsCode: code6 });

export const boundCard = z.object({
  id: z.number().int(),
  bankCode: z.string(),
  bankName: z.string(),
  logo: z.string(),
  /** `6222 **** **** 1234` */
  cardMasked: z.string(),
  last4: z.string(),
  /** The phone reserved at the bank, masked `138****8000`. */
  mobileMasked: z.string(),
  /** The holder's name, masked `*三`. */
  holderMasked: z.string(),
  boundAt: z.number().int(),
});
export type BoundCard = z.infer<typeof boundCard>;

/** A started binding (add, replace or a new reserved phone): confirm with affirmBindCard before `expiresAt`. */
export const bindRequest = z.object({
  bindId: z.string(),
  purpose: z.enum(['bind', 'replace', 'mobile']),
  bankCode: z.string(),
  bankName: z.string(),
  logo: z.string(),
  cardMasked: z.string(),
  mobileMasked: z.string(),
  expiresAt: z.number().int(),
});

/* ───────────── the payout account ───────────── */

export const identitySide = z.enum(['front', 'back']);
export const uploadIdentityQuery = z.object({ side: z.string().max(10) });
export const identityPhoto = z.object({
  side: identitySide,
  /** The owner's download path (private file: fetched with the token header). */
  url: z.string(),
  uploadedAt: z.number().int(),
});

export const createAccountBody = z.object({
  provinceCode: text(12),
  cityCode: text(12),
  address: text(200),
});

export const secondAccount = z.object({
  state: z.enum(PAYOUT_ACCOUNT_STATES),
  provider: z.string(),
  /** The provider's sub-merchant number, masked; null until opened. */
  accountNo: z.string().nullable(),
  realname: z.object({ verified: z.boolean(), nameMasked: z.string(), idMasked: z.string() }),
  card: boundCard.nullable(),
  identity: z.object({ front: identityPhoto.nullable(), back: identityPhoto.nullable() }),
  region: z.object({ provinceCode: z.string(), provinceName: z.string(), cityCode: z.string(), cityName: z.string() }).nullable(),
  /** What is still missing before the account can be opened. */
  missing: z.array(z.enum(['realname', 'card', 'identity'])),
  rejectReason: z.string().nullable(),
  openedAt: z.number().int().nullable(),
  /** Withdrawals requested or processing: money on its way to the card. */
  inFlight: z.object({ count: z.number().int(), amountFen: z.number().int() }),
  isCreator: z.boolean(),
});
export type SecondAccount = z.infer<typeof secondAccount>;

/* ───────────── merchant and split relation (creators) ───────────── */

export const merchantBody = z.object({
  shortName: text(64),
  servicePhone: text(32),
  category: text(32),
  provinceCode: text(12),
  cityCode: text(12),
  address: text(200),
});
export const merchant = z.object({
  merchantNo: z.string(),
  shortName: z.string(),
  /** The legal name: the verified real name, masked. */
  signNameMasked: z.string(),
  servicePhone: z.string(),
  category: z.string(),
  provinceCode: z.string(),
  cityCode: z.string(),
  address: z.string(),
  state: z.enum(['active']),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export const splitRelation = z.object({
  creatorId: z.number().int(),
  creatorName: z.string(),
  merchantNo: z.string(),
  /** The creator's share of a primary sale (1000 − the platform's commission), per mille. */
  ratioPermille: z.number().int(),
  state: z.enum(['bound']),
  boundAt: z.number().int(),
});

/* ───────────── dictionaries ───────────── */

export const bankItem = z.object({ code: z.string(), name: z.string(), logo: z.string() });
export const areaCity = z.object({ code: z.string(), name: z.string() });
export const areaProvince = z.object({ code: z.string(), name: z.string(), children: z.array(areaCity) });

/* ───────────── withdrawals ───────────── */

const amountFen = intLike.pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER));
export const withdrawPreviewBody = z.object({ amountFen: amountFen.nullish().transform((v) => v ?? 0) });
export const withdrawBody = z.object({ amountFen, smsCode: code6 });

export const withdrawLimits = z.object({
  minFen: z.number().int(),
  maxFen: z.number().int(),
  feePermille: z.number().int(),
  minFeeFen: z.number().int(),
  dailyCount: z.number().int(),
  dailyMaxFen: z.number().int(),
});
export const withdrawPreview = z.object({
  availableFen: z.number().int(),
  limits: withdrawLimits,
  todayCount: z.number().int(),
  todayAmountFen: z.number().int(),
  card: boundCard.nullable(),
  accountState: z.enum(PAYOUT_ACCOUNT_STATES),
  amountFen: z.number().int(),
  feeFen: z.number().int(),
  netFen: z.number().int(),
  /** Null when the amount can be withdrawn now; else the reason (the message withdraw would answer). */
  refusal: z.string().nullable(),
});
export const withdrawal = z.object({
  withdrawNo: z.string(),
  amountFen: z.number().int(),
  feeFen: z.number().int(),
  netFen: z.number().int(),
  status: z.enum(WITHDRAWAL_STATUSES),
  bankName: z.string(),
  cardMasked: z.string(),
  failReason: z.string().nullable(),
  createdAt: z.number().int(),
  finishedAt: z.number().int().nullable(),
});
export type Withdrawal = z.infer<typeof withdrawal>;
export const pageBody = z.object({ ...paging });

/* ───────────── stray payments and their refunds ───────────── */

export const strayRefund = z.object({
  refundNo: z.string(),
  status: z.enum(REFUND_STATUSES),
  amountFen: z.number().int(),
  automatic: z.boolean(),
  failReason: z.string().nullable(),
  createdAt: z.number().int(),
  finishedAt: z.number().int().nullable(),
});
export const strayCredit = z.object({
  paymentId: z.number().int(),
  orderNo: z.string(),
  provider: z.string(),
  amountFen: z.number().int(),
  reason: z.enum(STRAY_REASONS),
  creditedAt: z.number().int(),
  /** True when "refund to original method" can be asked now. */
  refundable: z.boolean(),
  refund: strayRefund.nullable(),
});
export const refundStrayBody = z.object({ paymentId: idParam });

/** Data schemas are nullable: a failure answers the same envelope with data null. */
export const secondAccountResponse = envelope(secondAccount.nullable());
export const bindRequestResponse = envelope(bindRequest.nullable());
export const boundCardResponse = envelope(boundCard.nullable());
export const merchantResponse = envelope(merchant.nullable());
export const splitRelationResponse = envelope(splitRelation.nullable());
export const bankListResponse = envelope(z.array(bankItem).nullable());
export const areaTreeResponse = envelope(z.array(areaProvince).nullable());
export const identityResponse = envelope(identityPhoto.nullable());
export const withdrawPreviewResponse = envelope(withdrawPreview.nullable());
export const withdrawalResponse = envelope(withdrawal.nullable());
export const withdrawalPageResponse = envelope(page(withdrawal).nullable());
export const strayCreditPageResponse = envelope(page(strayCredit).nullable());
export const strayRefundResponse = envelope(strayRefund.nullable());
export const nullResponse = envelope(z.null());
