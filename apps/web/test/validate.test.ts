import { describe, expect, it } from 'vitest';
import {
  validateForgotStep1,
  validateForgotStep2,
  validateMobileForSms,
  validatePasswordLogin,
  validateRegister,
  validateSmsLogin,
} from '../app/features/auth/validate.ts';
import { en } from '../app/i18n/en.ts';
import { zh } from '../app/i18n/zh.ts';

const M = '13800000000';

describe('overlay validation, in the spec order', () => {
  it('password login', () => {
    expect(validatePasswordLogin({ mobile: '1380000000', password: '', agreed: false })).toBe('mobileIncorrect');
    expect(validatePasswordLogin({ mobile: M, password: '', agreed: false })).toBe('passwordEmpty');
    expect(validatePasswordLogin({ mobile: M, password: 'x', agreed: false })).toBe('agreementTick');
    expect(validatePasswordLogin({ mobile: M, password: 'x', agreed: true })).toBeNull();
  });
  it('SMS login', () => {
    expect(validateSmsLogin({ mobile: '', code: '', agreed: false })).toBe('smsMobileIncorrect');
    expect(validateSmsLogin({ mobile: M, code: '', agreed: false })).toBe('codeEmpty');
    expect(validateSmsLogin({ mobile: M, code: '1', agreed: false })).toBe('agreementNotTicked');
    expect(validateSmsLogin({ mobile: M, code: '1', agreed: true })).toBeNull();
  });
  it('register', () => {
    const ok = { mobile: M, password: 'abc123', confirm: 'abc123', code: '123456', agreed: true };
    expect(validateRegister({ ...ok, mobile: '123' })).toBe('mobileIncorrect');
    expect(validateRegister({ ...ok, password: '', confirm: '' })).toBe('passwordRequired');
    expect(validateRegister({ ...ok, confirm: 'abc' })).toBe('confirmIncorrect');
    expect(validateRegister({ ...ok, code: '12345' })).toBe('codeIncorrect');
    expect(validateRegister({ ...ok, agreed: false })).toBe('agreementTick');
    expect(validateRegister(ok)).toBeNull();
  });
  it('forgot password', () => {
    expect(validateForgotStep1({ mobile: '1380000000', code: '1' })).toBe('mobileIncorrectDot');
    expect(validateForgotStep1({ mobile: M, code: '' })).toBe('codeEmpty');
    expect(validateForgotStep1({ mobile: M, code: '123456' })).toBeNull();
    expect(validateForgotStep2({ password: '', confirm: '' })).toBe('passwordRequired');
    expect(validateForgotStep2({ password: 'a', confirm: 'b' })).toBe('passwordsMismatch');
    expect(validateForgotStep2({ password: 'a', confirm: 'a' })).toBeNull();
  });
  it('get-code needs a full phone number', () => {
    expect(validateMobileForSms('138')).toBe('mobileIncorrectDot');
    expect(validateMobileForSms(M)).toBeNull();
  });
  it('messages are the spec texts', () => {
    expect(en.auth.validation).toEqual({
      mobileIncorrect: 'please enter a correct phone number',
      passwordEmpty: 'please enter user password',
      agreementTick: 'please tick the user agreement',
      smsMobileIncorrect: 'phone number entered incorrectly',
      codeEmpty: 'please enter the verification code',
      agreementNotTicked: 'user agreement not ticked',
      passwordRequired: 'please enter a password',
      confirmIncorrect: 'confirm password entered incorrectly!',
      codeIncorrect: 'verification code entered incorrectly!',
      mobileIncorrectDot: 'phone number entered incorrectly.',
      passwordsMismatch: 'the two passwords entered do not match',
    });
    expect(zh.auth.validation.mobileIncorrect).toBe('请输入正确的手机号');
    expect(zh.auth.validation.passwordsMismatch).toBe('两次输入的密码不一致');
    expect(zh.session.lost).toBe('未登录或登录失效，请先登录！');
    expect(en.session.lost).toBe('not logged in or session expired, please log in first!');
    expect(zh.wallet.loginFirst).toBe('请先登录，再连接钱包');
    expect(en.wallet.loginFirst).toBe('please log in first, then link a wallet');
  });
});
