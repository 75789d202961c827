import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(crypto.scrypt) as (pw: string, salt: Buffer, len: number, opts: crypto.ScryptOptions) => Promise<Buffer>;
const MiB = 1024 * 1024;

/**
 * Password hashing parameters: scrypt N=2^17, r=8, p=1 (OWASP's current figure; 128 MiB of memory
 * and a few hundred milliseconds per hash). Hashes of older parameters (N=2^14 before) still verify
 * and are replaced at the next successful login (needsRehash). Tests may lower N for the whole
 * process with PASSWORD_SCRYPT_N (config.ts: DEV_MODE only, refused with NODE_ENV=production)
 * through setPasswordScryptN; test/password-hashing.test.ts runs at the production cost.
 */
export const PASSWORD_SCRYPT = { N: 131072, r: 8, p: 1 } as const;
let current: { N: number; r: number; p: number } = { ...PASSWORD_SCRYPT };

/** Sets N for new hashes of this process (buildApp, from config.passwordScryptN). */
export function setPasswordScryptN(N: number) {
  current = { ...PASSWORD_SCRYPT, N };
}

/** scrypt needs 128·N·r·p bytes; OpenSSL refuses above maxmem, so allow that plus a margin. */
const maxmemFor = (N: number, r: number, p: number) => 128 * N * r * p + 32 * MiB;
/** Stored hashes above this cost are refused rather than computed (a corrupt or hostile row). */
const MAX_MEM = maxmemFor(PASSWORD_SCRYPT.N, PASSWORD_SCRYPT.r, PASSWORD_SCRYPT.p);

/** `scrypt$N$r$p$salt$hash`, base64url parts. */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = current;
  const salt = crypto.randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, { N, r, p, maxmem: maxmemFor(N, r, p) });
  return ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** How many scrypt password checks this process ran (tests assert that locked-out guesses cost none). */
export const passwordChecks = { count: 0 };

/**
 * A well-formed hash nobody's password matches, with the current parameters: unknown phones and
 * staff names cost the same scrypt as known ones.
 */
export function dummyPasswordHash(): string {
  return `scrypt$${current.N}$${current.r}$${current.p}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  passwordChecks.count++;
  if (!stored) {
    await verifyPassword(password, dummyPasswordHash());
    passwordChecks.count--;
    return false;
  }
  const [alg, n, r, p, salt, hash] = stored.split('$');
  if (alg !== 'scrypt' || !salt || !hash) return false;
  const [N, R, P] = [Number(n), Number(r), Number(p)];
  const maxmem = maxmemFor(N, R, P);
  if (!Number.isSafeInteger(N) || !Number.isSafeInteger(R) || !Number.isSafeInteger(P) || maxmem > MAX_MEM) return false;
  const expected = Buffer.from(hash, 'base64url');
  let got: Buffer;
  try {
    got = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, { N, r: R, p: P, maxmem });
  } catch {
    return false; // parameters scrypt refuses (N not a power of two …): no password matches
  }
  return crypto.timingSafeEqual(expected, got);
}

/** True when a stored hash (that just verified) has weaker parameters than new hashes get: rehash it. */
export function needsRehash(stored: string): boolean {
  const [alg, n, r, p] = stored.split('$');
  return alg !== 'scrypt' || Number(n) < current.N || Number(r) !== current.r || Number(p) !== current.p;
}

/** Hash of a random secret (session token, captcha token, reset token, SMS code) for storage. */
export function sha256(v: string): string {
  // The one-shot form: no Hash object per call (a session token is hashed on every request).
  return crypto.hash('sha256', v, 'hex');
}

export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

export function randomDigits(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += crypto.randomInt(10);
  return s;
}

const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export function randomInviteCode(len = 6): string {
  let s = '';
  for (let i = 0; i < len; i++) s += INVITE_ALPHABET[crypto.randomInt(INVITE_ALPHABET.length)];
  return s;
}

export function maskMobile(m: string): string {
  return m.length >= 7 ? `${m.slice(0, 3)}****${m.slice(-4)}` : '****';
}
