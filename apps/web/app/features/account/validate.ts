/**
 * Client validation of the security dialogs (account settings). Each function returns the key of
 * the first failing rule's message (security.validation.*) or null; the server checks the same
 * rules and has the last word. Pure, unit-tested.
 */
import { LIMITS, MOBILE_RE, PASSWORD_RE, SMS_CODE_RE } from '@cfx/contract/limits.ts';
import type { Messages } from '../../i18n/zh.ts';

export type SecurityValidationKey = keyof Messages['security']['validation'];

/** Change password: the old password (or, for an account without one, the security code), the new one twice. */
export function validateChangePassword(v: { hasPassword: boolean; oldPassword: string; password: string; confirm: string; code: string }): SecurityValidationKey | null {
  if (v.hasPassword && !v.oldPassword) return 'oldEmpty';
  if (!v.password) return 'passwordRequired';
  if (!PASSWORD_RE.test(v.password)) return 'passwordRule';
  if (v.password !== v.confirm) return 'passwordsMismatch';
  if (v.hasPassword && v.password === v.oldPassword) return 'passwordSame';
  if (!v.hasPassword && !SMS_CODE_RE.test(v.code)) return 'codeIncorrect';
  return null;
}

/** A 6-digit code was entered. */
export function validateCode(code: string): SecurityValidationKey | null {
  return SMS_CODE_RE.test(code) ? null : 'codeIncorrect';
}

/** The new phone of a phone change: 11 digits starting with 1, not the current one. */
export function validateNewMobile(mobile: string, current: string): SecurityValidationKey | null {
  if (mobile.length !== LIMITS.mobileLength || !MOBILE_RE.test(mobile)) return 'mobileIncorrect';
  if (mobile === current) return 'mobileSame';
  return null;
}

/** Step 3 of the phone change: the new phone and its code. */
export function validateMobileChange(v: { mobile: string; current: string; code: string }): SecurityValidationKey | null {
  return validateNewMobile(v.mobile, v.current) ?? validateCode(v.code);
}

/** Account cancellation: the notice confirmed and the security code entered. */
export function validateCancel(v: { confirmed: boolean; code: string }): SecurityValidationKey | null {
  if (!v.confirmed) return 'confirmRequired';
  return validateCode(v.code);
}

/** Whole days left until `at` (at least 0), rounded up: "剩余 N 天". */
export function daysLeft(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 86_400_000));
}
