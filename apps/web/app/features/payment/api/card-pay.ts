import type { z } from 'zod';
import type { CardPayPaths as Paths, cardPayment } from '@cfx/contract/card-pay.ts';
import type { BoundCard } from '@cfx/contract/payouts.ts';
import { api, apiData } from '../../../lib/api.ts';

/** Bank-card quick payment (docs/payouts.md "Paying with a bank card"). Paths checked against the contract by type. */
const CARD_PAY: { [K in keyof typeof Paths]: (typeof Paths)[K] } = {
  listPayCards: '/payment/card/V1/listPayCards',
  startCardPay: '/payment/card/V1/startCardPay',
  resendCardPaySms: '/payment/card/V1/resendCardPaySms',
  confirmCardPay: '/payment/card/V1/confirmCardPay',
};

export type CardPayment = z.infer<typeof cardPayment>;
export type PayCard = BoundCard;

/** My bound cards that can pay (masked); [] while bank cards are not offered. */
export const listPayCards = () => apiData<PayCard[]>(CARD_PAY.listPayCards, {}, { silent: true });
/** The bank sends a code to the card's reserved phone. */
export const startCardPay = (orderNo: string, cardId: number) => api<CardPayment>(CARD_PAY.startCardPay, { orderNo, cardId }, { silent: true });
export const resendCardPaySms = (payNo: string) => api<CardPayment>(CARD_PAY.resendCardPaySms, { payNo }, { silent: true });
/** The code: the bank takes the money; the order is paid when the bank's notify arrives (status `confirming` until then). */
export const confirmCardPay = (payNo: string, smsCode: string) => api<CardPayment>(CARD_PAY.confirmCardPay, { payNo, smsCode }, { silent: true });
