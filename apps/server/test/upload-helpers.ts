import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { encodePng } from '../src/modules/captcha/png.ts';
import { API, type TestApp } from './helpers.ts';

/** Real files made once (test/fixtures/uploads/README.md). */
export const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures/uploads', name));

/** A real PNG of `w`×`h`: random pixels (incompressible, so its size grows with w×h) or one colour. */
export function png(w: number, h: number, random = false): Buffer {
  const rgba = random ? crypto.randomBytes(w * h * 4) : Buffer.alloc(w * h * 4, 0x80);
  return encodePng(w, h, rgba);
}

export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

/** A multipart/form-data body as a browser sends it. */
export function multipartBody(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----cfxTestBoundary${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename !== undefined) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.contentType) head += `Content-Type: ${p.contentType}\r\n`;
    chunks.push(Buffer.from(head + '\r\n'), Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export type Envelope = { http: number; status: string; code: string | number; data: any; message: string; msg: string };

/** POSTs one file (field `file`) to an upload path through app.inject. */
export async function upload(
  t: TestApp,
  p: string,
  token: string | undefined,
  file: { data: Buffer | string; filename?: string; contentType?: string },
  headers: Record<string, string> = {},
): Promise<Envelope> {
  const { body, contentType } = multipartBody([{ name: 'file', filename: file.filename ?? 'file.bin', contentType: file.contentType ?? 'application/octet-stream', data: file.data }]);
  return send(t, p, body, { 'content-type': contentType, ...(token ? { token } : {}), ...headers });
}

export async function send(t: TestApp, p: string, payload: Buffer | string, headers: Record<string, string>): Promise<Envelope> {
  const res = await t.app.inject({ method: 'POST', url: API + p, headers: { channel: 'pc', ...headers }, payload });
  return { http: res.statusCode, ...(res.json() as Omit<Envelope, 'http'>) };
}
