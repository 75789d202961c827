import { describe, expect, it } from 'vitest';
import { PASSWORD_RE } from '@cfx/contract/limits.ts';
import { daysLeft, validateCancel, validateChangePassword, validateCode, validateMobileChange, validateNewMobile } from '../app/features/account/validate.ts';
import { en } from '../app/i18n/en.ts';
import { zh } from '../app/i18n/zh.ts';
import { serverMessages } from '@cfx/contract/messages.ts';

describe('account security validation (settings dialogs)', () => {
  const withPw = { hasPassword: true, oldPassword: 'old-pass1', password: 'n3w-pass', confirm: 'n3w-pass', code: '' };
  it('change password with the old one, rules in order', () => {
    expect(validateChangePassword({ ...withPw, oldPassword: '' })).toBe('oldEmpty');
    expect(validateChangePassword({ ...withPw, password: '', confirm: '' })).toBe('passwordRequired');
    expect(validateChangePassword({ ...withPw, password: 'abc', confirm: 'abc' })).toBe('passwordRule');
    expect(validateChangePassword({ ...withPw, password: 'a'.repeat(21), confirm: 'a'.repeat(21) })).toBe('passwordRule');
    expect(validateChangePassword({ ...withPw, password: '密码密码密码', confirm: '密码密码密码' })).toBe('passwordRule');
    expect(validateChangePassword({ ...withPw, password: 'ab cd12', confirm: 'ab cd12' })).toBe('passwordRule');
    expect(validateChangePassword({ ...withPw, confirm: 'n3w-pasS' })).toBe('passwordsMismatch');
    expect(validateChangePassword({ ...withPw, password: 'old-pass1', confirm: 'old-pass1' })).toBe('passwordSame');
    expect(validateChangePassword(withPw)).toBeNull();
  });
  it('an account without a password needs the 6-digit security code instead', () => {
    const sms = { hasPassword: false, oldPassword: '', password: 'n3w-pass', confirm: 'n3w-pass', code: '' };
    expect(validateChangePassword(sms)).toBe('codeIncorrect');
    expect(validateChangePassword({ ...sms, code: '12345' })).toBe('codeIncorrect');
    expect(validateChangePassword({ ...sms, code: '123456' })).toBeNull();
  });
  it('the client password rule is the server rule', () => {
    for (const pw of ['abc123', 'abc123!@#', 'A1!~`[]{}', 'x'.repeat(20)]) expect(validateChangePassword({ ...withPw, password: pw, confirm: pw }), pw).toBe(PASSWORD_RE.test(pw) ? null : 'passwordRule');
    expect(zh.security.validation.passwordRule).toBe(serverMessages.passwordRule.zh);
    expect(en.security.validation.passwordRule).toBe(serverMessages.passwordRule.en);
  });
  it('codes, the new phone and the phone change', () => {
    expect(validateCode('')).toBe('codeIncorrect');
    expect(validateCode('12a456')).toBe('codeIncorrect');
    expect(validateCode('123456')).toBeNull();
    expect(validateNewMobile('1380000000', '13900000000')).toBe('mobileIncorrect');
    expect(validateNewMobile('23800000000', '13900000000')).toBe('mobileIncorrect');
    expect(validateNewMobile('13900000000', '13900000000')).toBe('mobileSame');
    expect(validateNewMobile('13800000000', '13900000000')).toBeNull();
    expect(validateMobileChange({ mobile: '13800000000', current: '13900000000', code: '1' })).toBe('codeIncorrect');
    expect(validateMobileChange({ mobile: '138', current: '13900000000', code: '123456' })).toBe('mobileIncorrect');
    expect(validateMobileChange({ mobile: '13800000000', current: '13900000000', code: '123456' })).toBeNull();
  });
  it('cancellation needs the confirmation first, then the code', () => {
    expect(validateCancel({ confirmed: false, code: '123456' })).toBe('confirmRequired');
    expect(validateCancel({ confirmed: true, code: '' })).toBe('codeIncorrect');
    expect(validateCancel({ confirmed: true, code: '123456' })).toBeNull();
  });
  it('days left of the cooling-off period round up and never go below 0', () => {
    const day = 86_400_000;
    expect(daysLeft(15 * day, 0)).toBe(15);
    expect(daysLeft(15 * day, 1)).toBe(15);
    expect(daysLeft(15 * day, 14 * day + 1)).toBe(1);
    expect(daysLeft(15 * day, 16 * day)).toBe(0);
  });
  it('every validation key has a text in both languages', () => {
    for (const k of Object.keys(zh.security.validation)) expect(en.security.validation[k as keyof typeof en.security.validation]).toBeTruthy();
  });
});
