import crypto from 'node:crypto';
import { signAliyunQuery } from '../sms/aliyun.ts';
import type { KycProvider } from './types.ts';

export interface AliyunKycOptions { accessKeyId: string; accessKeySecret: string; endpoint: string }

/**
 * Production adapter: Alibaba Cloud ID two-factor verification (Cloudauth `Id2MetaVerify`),
 * signed like every POP RPC call. `BizCode` '1' means name and number match.
 */
export function aliyunKyc(opts: AliyunKycOptions, fetchImpl: typeof fetch = fetch): KycProvider {
  return {
    name: 'aliyun',
    async verify({ name, idNumber }) {
      const params: Record<string, string> = {
        AccessKeyId: opts.accessKeyId,
        Action: 'Id2MetaVerify',
        Format: 'JSON',
        IdentifyNum: idNumber,
        ParamType: 'normal',
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: crypto.randomUUID(),
        SignatureVersion: '1.0',
        Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        UserName: name,
        Version: '2019-03-07',
      };
      const res = await fetchImpl(`${opts.endpoint}?${signAliyunQuery(params, opts.accessKeySecret)}`, { signal: AbortSignal.timeout(8000) });
      const body = (await res.json().catch(() => ({}))) as { Code?: string; ResultObject?: { BizCode?: string } };
      if (body.Code !== '200') throw new Error(`kyc provider failed: ${body.Code ?? res.status}`);
      return { match: body.ResultObject?.BizCode === '1' };
    },
  };
}
