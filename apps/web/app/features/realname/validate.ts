/**
 * Client checks of the real-name form, the same rules the server applies (it checks again):
 * a name of 2-20 Chinese characters (· allowed) or a Latin name; a mainland resident ID number
 * (GB 11643-1999): 17 digits + check character (0-9 or X), a known province code, a real birth
 * date and the ISO 7064 MOD 11-2 checksum; and an age of 18 or more (Beijing time).
 */
import { ageOn } from '@cfx/protocol/china-time.ts';
import type { LIMITS } from '@cfx/contract/limits.ts';

/** (a literal checked against the contract's type; no runtime import: LIMITS shares a chunk every page loads). */
export const MINIMUM_AGE: (typeof LIMITS)['minimumAge'] = 18;

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK = '10X98765432';
const PROVINCES = new Set([11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52, 53, 54, 61, 62, 63, 64, 65, 71, 81, 82]);
const NAME_RE = /^[\u4e00-\u9fa5·]{2,20}$|^[A-Za-z][A-Za-z .·-]{1,48}[A-Za-z]$/;

export type RealnameError = 'nameEmpty' | 'nameInvalid' | 'idEmpty' | 'idLength' | 'idFormat' | 'idChecksum' | 'underage';

export function checkDigit(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * WEIGHTS[i]!;
  return CHECK[sum % 11]!;
}

/** Normalised ID number: trimmed, spaces removed, upper-case X. */
export function normaliseIdNumber(raw: string): string {
  return raw.replace(/\s+/g, '').toUpperCase();
}

export function birthOf(id: string): { y: number; m: number; d: number } | null {
  const y = Number(id.slice(6, 10)), m = Number(id.slice(10, 12)), d = Number(id.slice(12, 14));
  const date = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return { y, m, d };
}

/** Full years between the birth date and `now` (Beijing time). */
export function ageAt(birth: { y: number; m: number; d: number }, now: number): number {
  return ageOn(birth, now);
}

export function validateName(raw: string): RealnameError | null {
  const name = raw.trim();
  if (!name) return 'nameEmpty';
  return NAME_RE.test(name) ? null : 'nameInvalid';
}

export function validateIdNumber(raw: string, now: number = Date.now()): RealnameError | null {
  const id = normaliseIdNumber(raw);
  if (!id) return 'idEmpty';
  if (id.length !== 18) return 'idLength';
  if (!/^\d{17}[\dX]$/.test(id) || !PROVINCES.has(Number(id.slice(0, 2)))) return 'idFormat';
  const birth = birthOf(id);
  if (!birth || Date.UTC(birth.y, birth.m - 1, birth.d) > now) return 'idFormat';
  if (checkDigit(id.slice(0, 17)) !== id[17]) return 'idChecksum';
  if (ageAt(birth, now) < MINIMUM_AGE) return 'underage';
  return null;
}
