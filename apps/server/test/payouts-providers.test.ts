import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalParams, openYopEnvelope, signYopRequest, verifyYopResponse, yopSign } from '../src/providers/payout/yop-sign.ts';
import { sandboxPayout } from '../src/providers/payout/sandbox.ts';
import { yeepayPayout } from '../src/providers/payout/yeepay.ts';
import { withdrawalFee, chinaDayStart } from '../src/modules/payout/withdraw.ts';
import { loadPayoutConfig } from '../src/config/payout.ts';

/**
 * The payout providers' cryptography without a network: YeePay's YOP request signature against the
 * example of YeePay's own documentation ("鉴权认证机制(RSA)": its key, its canonical request, its
 * signature), answer and notify-envelope verification with generated keys, the sandbox's HMAC notifies.
 */
// The documentation's example merchant key (published by YeePay for exactly this purpose).
const DOC_KEY =
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC+YgO139eaN/Cjd3mTE4ePwqSI1F8ubXojffiwXy+mEiYGR4YscIcPQiYUGb2YpZQHa/Zoz+OyuloBCQBS1C8cva91KJojzUA4ll88vj8JF64G3P6WZh8acoUdNo8WRWfj9TVMMPBtzVcLK2bujrfx/t5Sggi66IK1FthcEtrkN8atA3rLj4OhNbZOzQRadecZDkeVelXU5LvNvBhBwO1cJ2Agr7ezkUaQENau/TSIAKdGJt607daB/MDgQdNrCNc/lUnp9+a8BUNYNCyJQZJKeAyVqFO73c/v3dlRaAUUfoH+hIbmS0g3aSpmxexvka6BFEld16wRG41VSGFhXbkRAgMBAAECggEASC9/uqkp5ZaKTmDRnvuLre2eVyc3A7KM2gI8lhsxROWit0TNUfJEs3tgVsS/x64YZ4v+/RS+ABl6YOQZ1E4RovMlIOYJM8PyMsKJT83OttLcsEuA2GPWLT/4yu/R5x7f2mYyFDaGIwv1kg2d1JwWkNITV/Nn/f6E+Ma1uIuJpXf9CVxIokfWFMstGNAGw/871V1qKAIDRsWTN4gTT4aRK/FPvQNzHv4nSEtlYdAYE8r53MaAZfigfFSOGowPFegyktQJXfmAUOhZbRhRZGQqcwU/1M5/TKu1cJECM/N/1ttjMlPNamQmONawq8dqfpK7a45YyWgyaadN2flA4/nWdQKBgQDWwrQsxnoVcoL88fFZYwol/5RYG+eA9zMffCi39KsKBU6ePbLlORYd2D/f2nDno6Uz2tFnUoRLvKy3ZINuIdN/jgD4ob69tk7XIKQSzh9Tv2485P8PasublywgdG9LnYk8qbF1VDsOkgecSSh7xG8Rz/U9p9kI5/wt3OOc0brjKwKBgQDi8PDtFziZNVSC58BcaWpAfZyDwB8X56BtNz1890zVOvF8ali6GUwgZkcH8KsQXhu+1YkmnC/YS6H0s+ZE4CIP6FGw5Z8988UB2i+oB0BMK8l8WDFOgPyW2n9l6502Qx1tqD3alekcksFsIlUgP9sVc5vtAKUPtNgguhRcP6mmswKBgQDCkkSLDIcvR0BFyy3OvlxDcPsFmMJ1pYE71VFO2Ozdd1FzLJMX+lB/WZ0FQvNn6muSP33ZDnmt5JLW1Mn+zcbAmfdnS6N0XeewIHKGVxkq1xUZNp+faDJwFNZ10QfEikX8IAIXOukGmmcqwV1cROwcRzz5T0jjOMrRAn91ZM7dYQKBgC91JVzfU0WuwlqRrkdlAAQ2gGmI3re4B3NvbttYN+gLaH6VGrLoIWRRHx+I86z7kR/KNeEuHk9EGb07dbcHi/f5pEOy8ScaeCNYBklEIu0K5xqqsrzw+mFtleCxcfHr/RZ2bWDtoo8IHYzIbTbOQ7lrsLrSPLJZJi1J3IIiCg9DAoGAOxT0qqTUADmSvwnzyQAYJ5sFI36eMcKqwkBuqb7ZQiLFNv1WZROrkeGin2ishntFKsIUtrpeikPjNP2AX6X0UuSQsUNNWx1zYpSlNUyGtGueYhmmP+7plPN5BhuJ3Ba6IYC/uI/l1tJP3S4e/xa/rCcNrf36RzK+PLLPq/uPAaY=';
const DOC_SIGNATURE =
  'pOVoj1mI5bqYQQKTlE8iIYm0DKHpL5Q2vscY03lwP3KXpHRPJlKQfEOgpW-jfsyWf46c-uPehOZfOke7vla3rY6FtAVeoX0g8319WEdvQVgXwzW7xPtp5er4No8gpCrizsbmp2Fw7NSjASGsCaLEEri8iHsvN_TgFsGEIUf9JtQYWkoqdOh6vK1-xZvisp2ePAg2GKHy1Y0tbkXbzO9Bp_dBkgEHI7B2N80mzn-tEZ0xi6uMKSSvI8VPK14Rys8pJ4c4I4RZjoDEnxxsG2Z977RGtCuf_3RvrwohxECO5iF8BMjJF89nqi50QaZtS2mx32649_cORFLbD8VFpQhyxA$SHA256';
const DOC_PARAMS = { orderId: '1234321', orderAmount: '100.05', notifyUrl: 'https://xxx.com/notify', parentMerchantNo: '1234321' };

describe('YOP request signature (YeePay documentation example)', () => {
  it('rebuilds the documented content hash, canonical request and Authorization header byte for byte', () => {
    expect(crypto.createHash('sha256').update(canonicalParams(DOC_PARAMS)).digest('hex')).toBe('d9c89c72b774c89e2d15c19fc3326e7c9508d605a7974ab0a636d9121c97e7ff');
    const signed = signYopRequest({
      appKey: 'app_100123456789',
      privateKey: DOC_KEY,
      method: 'POST',
      path: '/rest/v1.0/trade/order',
      params: DOC_PARAMS,
      requestId: 'd48782ac-93c1-466e-b417-f7a71e4965f0',
      now: Date.parse('2021-12-08T11:59:16Z'),
    });
    expect(signed.canonicalRequest).toBe(
      [
        'yop-auth-v3/app_100123456789/2021-12-08T11:59:16Z/1800',
        'POST',
        '/rest/v1.0/trade/order',
        '',
        'content-type:application%2Fx-www-form-urlencoded',
        'x-yop-appkey:app_100123456789',
        'x-yop-content-sha256:d9c89c72b774c89e2d15c19fc3326e7c9508d605a7974ab0a636d9121c97e7ff',
        'x-yop-request-id:d48782ac-93c1-466e-b417-f7a71e4965f0',
      ].join('\n'),
    );
    expect(signed.headers.authorization).toBe(`YOP-RSA2048-SHA256 yop-auth-v3/app_100123456789/2021-12-08T11:59:16Z/1800/content-type;x-yop-appkey;x-yop-content-sha256;x-yop-request-id/${DOC_SIGNATURE}`);
    expect(yopSign(signed.canonicalRequest, DOC_KEY)).toBe(DOC_SIGNATURE);
  });

  it('a GET puts the parameters in the canonical query and hashes an empty body', () => {
    const s = signYopRequest({ appKey: 'app_1', privateKey: DOC_KEY, method: 'GET', path: '/rest/v1.0/account/withdraw/query', params: { requestNo: 'WD 1', parentMerchantNo: '100' }, requestId: 'r', now: 0 });
    const lines = s.canonicalRequest.split('\n');
    expect(lines[3]).toBe('parentMerchantNo=100&requestNo=WD%201');
    expect(s.headers['x-yop-content-sha256']).toBe(crypto.createHash('sha256').update('').digest('hex'));
    expect(s.headers['content-type']).toBeUndefined();
  });
});

describe('YOP answers and notifies (generated keys)', () => {
  const platform = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const merchant = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = (k: crypto.KeyObject, type: 'pkcs8' | 'spki') => k.export({ type, format: 'pem' }).toString();
  const platformPub = pem(platform.publicKey, 'spki');
  const merchantPriv = pem(merchant.privateKey, 'pkcs8');

  it('verifies x-yop-sign over the result object and refuses a changed answer', () => {
    const result = { returnCode: 'UA00000', orderNo: 'YB1' };
    const sign = `${crypto.createSign('RSA-SHA256').update(JSON.stringify(result)).sign(platform.privateKey).toString('base64url')}$SHA256`;
    const body = JSON.stringify({ result, ts: 1 });
    expect(verifyYopResponse(body, sign, platformPub)).toBe(true);
    expect(verifyYopResponse(JSON.stringify({ result: { ...result, orderNo: 'YB2' } }), sign, platformPub)).toBe(false);
    expect(verifyYopResponse(body, undefined, platformPub)).toBe(false);
  });

  function envelope(json: string, signer = platform.privateKey) {
    const aes = crypto.randomBytes(16);
    const sig = crypto.createSign('RSA-SHA256').update(json).sign(signer).toString('base64url');
    const c = crypto.createCipheriv('aes-128-ecb', aes, null);
    const data = Buffer.concat([c.update(`${json}$${sig}`, 'utf8'), c.final()]).toString('base64url');
    const key = crypto.publicEncrypt({ key: merchant.publicKey, padding: crypto.constants.RSA_PKCS1_PADDING }, aes).toString('base64url');
    return `${key}$${data}$AES$SHA256`;
  }

  it('opens a notify envelope, checks its signature, and the adapter reads the withdrawal from it', () => {
    const json = JSON.stringify({ requestNo: 'WD1', orderNo: 'YB9', status: 'SUCCESS' });
    expect(openYopEnvelope(envelope(json), merchantPriv, platformPub)).toBe(json);
    expect(openYopEnvelope(envelope(json, merchant.privateKey), merchantPriv, platformPub)).toBeNull();
    expect(openYopEnvelope('garbage$garbage', merchantPriv, platformPub)).toBeNull();
    const y = yeepayPayout({ appKey: 'app_1', privateKey: merchantPriv, platformPublicKey: platformPub, parentMerchantNo: '100', gateway: 'http://127.0.0.1:9' });
    expect(y.verifyNotify({ response: envelope(json) })).toEqual({ withdrawNo: 'WD1', tradeNo: 'YB9', status: 'succeeded', reason: null });
    expect(y.verifyNotify({ response: envelope(JSON.stringify({ requestNo: 'WD2', orderNo: 'YB8', status: 'FAIL', failReason: '账户异常' })) })).toMatchObject({ status: 'failed', reason: '账户异常' });
    expect(y.verifyNotify({})).toBeNull();
  });

  it('the adapter refuses an answer whose signature does not verify (no money decision on an unsigned answer)', async () => {
    const fake = (async () => new Response(JSON.stringify({ result: { returnCode: 'UA00000', orderNo: 'X' } }), { headers: { 'x-yop-sign': 'AAAA$SHA256' } })) as typeof fetch;
    const y = yeepayPayout({ appKey: 'app_1', privateKey: merchantPriv, platformPublicKey: platformPub, parentMerchantNo: '100', gateway: 'http://yop.test' }, fake);
    await expect(y.queryWithdrawal('WD1')).rejects.toThrow(/signature/);
  });
});

describe('the sandbox payout notify and the money helpers', () => {
  it('signs and verifies its notifies; a changed field or another secret fails', () => {
    const sb = sandboxPayout('secret-a', undefined as never);
    const n = sb.notifyParams({ withdrawNo: 'WD1', tradeNo: 'SBP1', amountFen: 9900, success: true, reason: null }, 0);
    expect(sb.verifyNotify(n)).toEqual({ withdrawNo: 'WD1', tradeNo: 'SBP1', status: 'succeeded', reason: null });
    expect(sb.verifyNotify({ ...n, status: 'FAIL' })).toBeNull();
    expect(sandboxPayout('secret-b', undefined as never).verifyNotify(n)).toBeNull();
  });

  it('fee rounding and the China-time day', () => {
    const ctx = { config: { payout: loadPayoutConfig({ WITHDRAW_FEE_PERMILLE: '10', WITHDRAW_MIN_FEE_FEN: '0' }, true) } } as never;
    expect(withdrawalFee(ctx, 1)).toBe(1);
    expect(withdrawalFee(ctx, 100)).toBe(1);
    expect(withdrawalFee(ctx, 101)).toBe(2);
    // 2024-01-01 00:30 in Beijing is 2023-12-31 16:30 UTC: the day started at 16:00 UTC
    expect(chinaDayStart(Date.parse('2023-12-31T16:30:00Z'))).toBe(Date.parse('2023-12-31T16:00:00Z'));
    expect(() => loadPayoutConfig({ PAYOUT_PROVIDER: 'sandbox' }, false)).toThrow(/DEV_MODE/);
    expect(() => loadPayoutConfig({ PAYOUT_PROVIDER: 'yeepay' }, false)).toThrow(/YEEPAY_APP_KEY/);
    expect(loadPayoutConfig({}, false).provider).toBe('none');
  });
});
