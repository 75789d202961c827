/** WeChat Pay on the web: which method is pre-selected, and what the QR code of a code_url encodes. */
import { describe, expect, it } from 'vitest';
import { encode } from 'uqr';
import { qrPath } from '../app/components/ui/qr-code.tsx';
import { defaultMethod, METHOD_ORDER } from '../app/features/payment/methods.ts';
import { isSandboxCode, qrTarget } from '../app/features/payment/components/wechat-qr-panel.tsx';
import { en } from '../app/i18n/en.ts';
import { zh } from '../app/i18n/zh.ts';

describe('WeChat Pay method', () => {
  it('is offered after Alipay and before the balance, and kept when asked for', () => {
    expect(METHOD_ORDER).toEqual(['sandbox', 'alipay', 'wechat', 'balance', 'card']);
    expect(defaultMethod(['wechat', 'balance'])).toBe('wechat');
    expect(defaultMethod(['alipay', 'wechat', 'balance'])).toBe('alipay');
    expect(defaultMethod(['alipay', 'wechat', 'balance'], 'wechat')).toBe('wechat');
  });

  it('a QR code encodes WeChat Pay\'s code_url as is, and the sandbox page as an absolute URL', () => {
    const code = 'weixin://wxpay/bizpayurl?pr=a1b2c3d4e5';
    expect(qrTarget(code, 'https://market.example.cn')).toBe(code);
    expect(isSandboxCode(code)).toBe(false);
    const sandbox = '/mvapi/public/payment/sandbox/wechat/scan?t=eyJvcmRlck5vIjoiTU8xIn0.abcdef';
    expect(qrTarget(sandbox, 'http://192.168.1.5:3000')).toBe(`http://192.168.1.5:3000${sandbox}`);
    expect(isSandboxCode(sandbox)).toBe(true);
    // the modules drawn are those of this exact text
    const qr = encode(code, { ecc: 'M', border: 2 });
    const { size, d } = qrPath(code);
    expect(size).toBe(qr.size);
    expect(d.length).toBeGreaterThan(100);
    expect(qrPath(`${code}x`).d).not.toBe(d);
  });

  it('has its texts in both catalogs', () => {
    for (const cat of [zh, en]) {
      const w = cat.payment.wechat;
      for (const k of ['title', 'amount', 'qrLabel', 'scanHint', 'remaining', 'waiting', 'generating', 'expired', 'failed', 'sandboxOpen', 'changeMethod'] as const) expect(w[k]).toBeTruthy();
      expect(cat.payment.methods.wechat.name).toBeTruthy();
    }
    expect(zh.payment.methods.wechat.name).toBe('微信支付');
    expect(en.payment.methods.wechat.name).toBe('WeChat Pay');
  });
});
