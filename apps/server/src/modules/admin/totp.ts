import crypto from 'node:crypto';
import { TOTP } from '@cfx/contract/admin-rules.ts';

/**
 * One-time passwords of the staff accounts: HOTP (RFC 4226) and TOTP (RFC 6238) on node:crypto's
 * HMAC, and the RFC 4648 base32 the authenticator apps read secrets in. Pure functions: the e2e
 * test computes its codes with the same ones.
 */
export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

/** RFC 4226 §5.3: HMAC of the 8-byte big-endian counter, dynamic truncation, `digits` decimal digits. */
export function hotp(secret: Buffer, counter: number | bigint, digits: number = TOTP.digits, algorithm: TotpAlgorithm = 'sha1'): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = crypto.createHmac(algorithm, secret).update(msg).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const bin = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(bin % 10 ** digits).padStart(digits, '0');
}

/** The time step of an instant (epoch ms): floor(seconds / step), T0 = 0. */
export function totpStep(timeMs: number, stepSeconds: number = TOTP.stepSeconds): number {
  return Math.floor(timeMs / 1000 / stepSeconds);
}

/** RFC 6238: the code at `timeMs`. */
export function totp(secret: Buffer, timeMs: number, opts: { digits?: number; stepSeconds?: number; algorithm?: TotpAlgorithm } = {}): string {
  return hotp(secret, totpStep(timeMs, opts.stepSeconds), opts.digits ?? TOTP.digits, opts.algorithm ?? 'sha1');
}

/**
 * The time step whose code `code` is, among the steps within ±`window` of `timeMs` (nearest
 * first), or null. Compared in constant time. The caller refuses a step it already accepted.
 */
export function matchTotp(secret: Buffer, code: string, timeMs: number, window: number = TOTP.window): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = totpStep(timeMs);
  const want = Buffer.from(code);
  let found: number | null = null;
  for (const d of [0, -1, 1, -2, 2].filter((x) => Math.abs(x) <= window)) {
    const got = Buffer.from(hotp(secret, now + d));
    if (crypto.timingSafeEqual(got, want) && found === null) found = now + d;
  }
  return found;
}

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding (what otpauth:// URIs carry). */
export function base32Encode(buf: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of buf) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (case-insensitive, padding and spaces ignored); throws on other characters. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const v = B32.indexOf(ch);
    if (v < 0) throw new Error('not base32');
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    value &= (1 << bits) - 1;
  }
  return Buffer.from(out);
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation), base32. */
export function newTotpSecret(): string {
  return base32Encode(crypto.randomBytes(20));
}

/** The otpauth:// URI authenticator apps scan (Key Uri Format): issuer, account, secret, SHA1, 6 digits, 30 s. */
export function otpauthUri(secret: string, account: string, issuer: string = TOTP.issuer): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  // Percent-encoding (%20), not form encoding (+): some authenticator apps show a literal `+`.
  const q = Object.entries({ secret, issuer, algorithm: 'SHA1', digits: String(TOTP.digits), period: String(TOTP.stepSeconds) })
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&');
  return `otpauth://totp/${label}?${q}`;
}
