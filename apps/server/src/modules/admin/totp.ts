import { HOTP, Secret, TOTP as OtpTotp } from 'otpauth';
import { TOTP } from '@cfx/contract/admin-rules.ts';

/**
 * One-time passwords of the staff accounts: HOTP (RFC 4226), TOTP (RFC 6238), the RFC 4648 base32
 * authenticator apps read secrets in and the otpauth:// URI they scan, all from the `otpauth`
 * library (HMAC on node:crypto, codes compared in constant time). This file only fixes the
 * console's parameters (SHA1, 6 digits, 30 s, ±TOTP.window steps) and reports *which* step matched,
 * so the caller can refuse a step it already accepted (replay). The e2e test computes its codes
 * with the same functions.
 */
export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

const ALGORITHM: Record<TotpAlgorithm, string> = { sha1: 'SHA1', sha256: 'SHA256', sha512: 'SHA512' };

/** The library's secret holding a copy of `bytes` (a Buffer may be a view into a shared pool). */
const secretOf = (bytes: Buffer) => new Secret({ buffer: Uint8Array.from(bytes).buffer });

/** RFC 4226: the `digits`-digit code of `counter`. */
export function hotp(secret: Buffer, counter: number | bigint, digits: number = TOTP.digits, algorithm: TotpAlgorithm = 'sha1'): string {
  return HOTP.generate({ secret: secretOf(secret), counter: Number(counter), digits, algorithm: ALGORITHM[algorithm] });
}

/** The time step of an instant (epoch ms): floor(seconds / step), T0 = 0. */
export function totpStep(timeMs: number, stepSeconds: number = TOTP.stepSeconds): number {
  return OtpTotp.counter({ period: stepSeconds, timestamp: timeMs });
}

/** RFC 6238: the code at `timeMs`. */
export function totp(secret: Buffer, timeMs: number, opts: { digits?: number; stepSeconds?: number; algorithm?: TotpAlgorithm } = {}): string {
  return OtpTotp.generate({
    secret: secretOf(secret),
    timestamp: timeMs,
    period: opts.stepSeconds ?? TOTP.stepSeconds,
    digits: opts.digits ?? TOTP.digits,
    algorithm: ALGORITHM[opts.algorithm ?? 'sha1'],
  });
}

/**
 * The time step whose code `code` is, among the steps within ±`window` of `timeMs` (nearest
 * first), or null. The caller refuses a step it already accepted.
 */
export function matchTotp(secret: Buffer, code: string, timeMs: number, window: number = TOTP.window): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = OtpTotp.validate({ token: code, secret: secretOf(secret), timestamp: timeMs, period: TOTP.stepSeconds, digits: TOTP.digits, algorithm: 'SHA1', window });
  return delta === null ? null : totpStep(timeMs) + delta;
}

/** RFC 4648 base32 without padding (what otpauth:// URIs carry). */
export function base32Encode(buf: Buffer): string {
  return secretOf(buf).base32;
}

/** Decodes base32 (case-insensitive, padding and white space ignored); throws on other characters. */
export function base32Decode(text: string): Buffer {
  return Buffer.from(Secret.fromBase32(text.replace(/[\s=]/g, '')).bytes);
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI authenticator apps scan (Key Uri Format): issuer, account, secret, SHA1, 6 digits, 30 s. */
export function otpauthUri(secret: string, account: string, issuer: string = TOTP.issuer): string {
  // The library percent-encodes (%20, not form encoding's `+`, which some apps show literally).
  return new OtpTotp({ issuer, label: account, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: TOTP.digits, period: TOTP.stepSeconds }).toString();
}
