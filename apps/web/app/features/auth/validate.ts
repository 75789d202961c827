/**
 * Client validation of the overlay's forms. Each function returns the key of the
 * first failing rule's message (auth.validation.*) or null. Rules run in the spec's order.
 */
import type { Messages } from '../../i18n/zh.ts';
import { LIMITS } from '@cfx/contract/limits.ts';

export type ValidationKey = keyof Messages['auth']['validation'];

/** "more than 10 characters (effectively 11)" */
const mobileOk = (mobile: string) => mobile.length > 10;

export function validatePasswordLogin(v: { mobile: string; password: string; agreed: boolean }): ValidationKey | null {
  if (!mobileOk(v.mobile)) return 'mobileIncorrect';
  if (!v.password) return 'passwordEmpty';
  if (!v.agreed) return 'agreementTick';
  return null;
}

export function validateSmsLogin(v: { mobile: string; code: string; agreed: boolean }): ValidationKey | null {
  if (!mobileOk(v.mobile)) return 'smsMobileIncorrect';
  if (!v.code) return 'codeEmpty';
  if (!v.agreed) return 'agreementNotTicked';
  return null;
}

export function validateRegister(v: { mobile: string; password: string; confirm: string; code: string; agreed: boolean }): ValidationKey | null {
  if (!mobileOk(v.mobile)) return 'mobileIncorrect';
  if (!v.password) return 'passwordRequired';
  if (v.confirm !== v.password) return 'confirmIncorrect';
  if (v.code.length !== LIMITS.smsCodeLength) return 'codeIncorrect';
  if (!v.agreed) return 'agreementTick';
  return null;
}

export function validateForgotStep1(v: { mobile: string; code: string }): ValidationKey | null {
  if (v.mobile.length !== LIMITS.mobileLength) return 'mobileIncorrectDot';
  if (!v.code) return 'codeEmpty';
  return null;
}

export function validateForgotStep2(v: { password: string; confirm: string }): ValidationKey | null {
  if (!v.password) return 'passwordRequired';
  if (v.password !== v.confirm) return 'passwordsMismatch';
  return null;
}

/** Before a code is requested: "phone number entered incorrectly." (a warning). */
export function validateMobileForSms(mobile: string): ValidationKey | null {
  return mobileOk(mobile) ? null : 'mobileIncorrectDot';
}
