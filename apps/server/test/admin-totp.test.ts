import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, newTotpSecret, otpauthUri, totp, totpStep } from '../src/modules/admin/totp.ts';

/**
 * The one-time passwords of the staff accounts (totp.ts on the `otpauth` library) against the
 * published test vectors: RFC 4226 Appendix D (HOTP) and RFC 6238 Appendix B (TOTP, SHA1 / SHA256 /
 * SHA512, 8 digits), plus RFC 4648 §10 for base32 and the ±1 step window the console accepts.
 */
const ascii = (s: string) => Buffer.from(s, 'ascii');
// RFC 6238 Appendix B: the seeds are this ASCII string repeated to 20, 32 and 64 bytes.
const SEED = { sha1: ascii('12345678901234567890'), sha256: ascii('12345678901234567890123456789012'), sha512: ascii('1234567890123456789012345678901234567890123456789012345678901234') } as const;

describe('RFC 4226 HOTP', () => {
  it('gives the Appendix D values for counters 0-9', () => {
    const want = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(want.map((_, c) => hotp(SEED.sha1, c))).toEqual(want);
  });
});

describe('RFC 6238 TOTP', () => {
  // [time (s), SHA1, SHA256, SHA512] — Appendix B, 8 digits, X = 30, T0 = 0.
  const table: [number, string, string, string][] = [
    [59, '94287082', '46119246', '90693936'],
    [1111111109, '07081804', '68084774', '25091201'],
    [1111111111, '14050471', '67062674', '99943326'],
    [1234567890, '89005924', '91819424', '93441116'],
    [2000000000, '69279037', '90698825', '38618901'],
    [20000000000, '65353130', '77737706', '47863826'],
  ];
  it.each(table)('T = %i s', (sec, sha1, sha256, sha512) => {
    const ms = sec * 1000;
    expect(totp(SEED.sha1, ms, { digits: 8, algorithm: 'sha1' })).toBe(sha1);
    expect(totp(SEED.sha256, ms, { digits: 8, algorithm: 'sha256' })).toBe(sha256);
    expect(totp(SEED.sha512, ms, { digits: 8, algorithm: 'sha512' })).toBe(sha512);
  });
  it('uses the Appendix B time steps (T as a 64-bit counter)', () => {
    expect(totpStep(59_000)).toBe(1);
    expect(totpStep(1111111109_000)).toBe(0x23523ec);
    expect(totpStep(20000000000_000)).toBe(0x27bc86aa);
  });
  it('the console default is 6 digits of the same HMAC-SHA1 value', () => {
    expect(totp(SEED.sha1, 59_000)).toBe('287082');
    expect(totp(SEED.sha1, 1111111109_000)).toBe('081804');
  });
});

describe('matching a code', () => {
  const secret = SEED.sha1;
  const t = 1_700_000_000_000;
  it('accepts the current step and one step either side, and says which step it was', () => {
    const step = totpStep(t);
    expect(matchTotp(secret, totp(secret, t), t)).toBe(step);
    expect(matchTotp(secret, totp(secret, t - 30_000), t)).toBe(step - 1);
    expect(matchTotp(secret, totp(secret, t + 30_000), t)).toBe(step + 1);
  });
  it('refuses two steps away, malformed codes and other secrets', () => {
    expect(matchTotp(secret, totp(secret, t - 60_000), t)).toBeNull();
    expect(matchTotp(secret, totp(secret, t + 60_000), t)).toBeNull();
    for (const bad of ['', '12345', '1234567', 'abcdef', ' 12345']) expect(matchTotp(secret, bad, t)).toBeNull();
    expect(matchTotp(SEED.sha256, totp(secret, t), t)).toBeNull();
  });
  it('a narrower window is honoured (0: the current step only)', () => {
    expect(matchTotp(secret, totp(secret, t), t, 0)).toBe(totpStep(t));
    expect(matchTotp(secret, totp(secret, t - 30_000), t, 0)).toBeNull();
  });
  it('a secret held in a shared Buffer pool is read as its own bytes only', () => {
    const pooled = Buffer.from('12345678901234567890', 'ascii'); // small Buffers are views into one pool
    expect(pooled.byteOffset > 0 || pooled.buffer.byteLength > pooled.length).toBe(true);
    expect(hotp(pooled, 0)).toBe('755224');
  });
});

describe('base32 (RFC 4648 §10) and the otpauth URI', () => {
  it('encodes and decodes the RFC vectors', () => {
    const vectors: [string, string][] = [['', ''], ['f', 'MY'], ['fo', 'MZXQ'], ['foo', 'MZXW6'], ['foob', 'MZXW6YQ'], ['fooba', 'MZXW6YTB'], ['foobar', 'MZXW6YTBOI']];
    for (const [plain, enc] of vectors) {
      expect(base32Encode(ascii(plain))).toBe(enc);
      expect(base32Decode(enc).toString('ascii')).toBe(plain);
    }
    expect(base32Decode('mzxw 6ytb oi======').toString('ascii')).toBe('foobar');
    expect(() => base32Decode('MZ1W')).toThrow();
  });
  it('makes 160-bit secrets and a URI authenticator apps read', () => {
    const s = newTotpSecret();
    expect(s).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(s)).toHaveLength(20);
    const uri = new URL(otpauthUri(s, 'boss'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/CFX Art Admin:boss');
    expect(uri.search).toContain('issuer=CFX%20Art%20Admin');
    expect(Object.fromEntries(uri.searchParams)).toEqual({ secret: s, issuer: 'CFX Art Admin', algorithm: 'SHA1', digits: '6', period: '30' });
  });
});
