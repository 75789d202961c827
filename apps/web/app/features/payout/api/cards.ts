import { api } from '../../../lib/api.ts';
import { PAYOUT } from './paths.ts';
import type { BindPurpose, BindRequest, BoundCard } from './types.ts';

export interface CardForm {
  name: string;
  idNumber: string;
  cardNo: string;
  mobile: string;
}

/** addBindCard / editSecondAccountBankCard / editSecondAccountMobile: the 4-element check, then a code to the reserved phone. */
export function startBinding(purpose: BindPurpose, form: CardForm, NECaptchaValidate: string) {
  if (purpose === 'mobile') return api<BindRequest>(PAYOUT.editSecondAccountMobile, { mobile: form.mobile, NECaptchaValidate });
  return api<BindRequest>(purpose === 'bind' ? PAYOUT.addBindCard : PAYOUT.editSecondAccountBankCard, { ...form, cardNo: form.cardNo.replace(/\s/g, ''), NECaptchaValidate });
}
export const resendBindingCode = (bindId: string, NECaptchaValidate: string) => api<null>(PAYOUT.getVerifyCode, { bindId, NECaptchaValidate });
export const affirmBinding = (bindId: string, smsCode: string) => api<BoundCard>(PAYOUT.affirmBindCard, { bindId, smsCode });
export const unbindCard = (smsCode: string) => api<null>(PAYOUT.unbindAccountBankCard, { smsCode });
