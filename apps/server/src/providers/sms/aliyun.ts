import crypto from 'node:crypto';
import type { SmsOutcome, SmsProvider } from './types.ts';

export interface AliyunSmsOptions {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
  endpoint: string;
  /** Template codes of message-center notices by template name (ALIYUN_SMS_NOTICE_TEMPLATES). */
  noticeTemplates?: Record<string, string>;
}

/** RFC 3986 encoding as Alibaba Cloud's POP signature requires. */
const percent = (s: string) =>
  encodeURIComponent(s).replace(/\+/g, '%20').replace(/\*/g, '%2A').replace(/%7E/g, '~').replace(/[!'()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Signs a POP RPC request (SignatureMethod HMAC-SHA1, version 1.0) and returns the full query string. */
export function signAliyunQuery(params: Record<string, string>, secret: string, method = 'GET'): string {
  const sorted = Object.keys(params).sort().map((k) => `${percent(k)}=${percent(params[k]!)}`).join('&');
  const toSign = `${method}&${percent('/')}&${percent(sorted)}`;
  const signature = crypto.createHmac('sha1', `${secret}&`).update(toSign).digest('base64');
  return `Signature=${percent(signature)}&${sorted}`;
}

/** Production adapter for Alibaba Cloud SMS (dysmsapi SendSms). */
export function aliyunSms(opts: AliyunSmsOptions, fetchImpl: typeof fetch = fetch): SmsProvider {
  async function sendSms(mobile: string, templateCode: string, templateParam: Record<string, string>, outId?: string) {
    const params: Record<string, string> = {
      AccessKeyId: opts.accessKeyId,
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: mobile,
      RegionId: 'cn-hangzhou',
      SignName: opts.signName,
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: crypto.randomUUID(),
      SignatureVersion: '1.0',
      TemplateCode: templateCode,
      TemplateParam: JSON.stringify(templateParam),
      Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2017-05-25',
      ...(outId ? { OutId: outId } : {}),
    };
    const url = `${opts.endpoint}?${signAliyunQuery(params, opts.accessKeySecret)}`;
    const res = await fetchImpl(url, { signal: AbortSignal.timeout(5000) });
    const body = (await res.json().catch(() => ({}))) as { Code?: string; Message?: string };
    if (body.Code !== 'OK') throw new Error(`aliyun sms failed: ${body.Code ?? res.status} ${body.Message ?? ''}`);
  }
  return {
    name: 'aliyun',
    // One SendSms per notice, one after the other (the gateway limits each account's rate); a failure is that notice's outcome.
    async notify(notices) {
      const out: SmsOutcome[] = [];
      for (const { mobile, messageId, template, params } of notices) {
        const code = opts.noticeTemplates?.[template];
        if (!code) {
          out.push('skipped');
          continue;
        }
        try {
          await sendSms(mobile, code, params, `msg${messageId}`);
          out.push('sent');
        } catch (err) {
          out.push(err instanceof Error ? err : new Error(String(err)));
        }
      }
      return out;
    },
    async send({ mobile, code }) {
      await sendSms(mobile, opts.templateCode, { code });
    },
  };
}
