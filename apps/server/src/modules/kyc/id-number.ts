import { ageOn } from '@cfx/protocol/china-time.ts';

/**
 * Mainland resident ID numbers (GB 11643-1999): 17 digits + a check character (0-9 or X),
 * province code, a real birth date, and the ISO 7064 MOD 11-2 checksum.
 */
const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK = '10X98765432';
const PROVINCES = new Set([11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52, 53, 54, 61, 62, 63, 64, 65, 71, 81, 82]);

export interface ParsedId { birth: { y: number; m: number; d: number } }

export function checkDigit(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * WEIGHTS[i]!;
  return CHECK[sum % 11]!;
}

export function parseIdNumber(raw: string): ParsedId | undefined {
  const id = raw.trim().toUpperCase();
  if (!/^\d{17}[\dX]$/.test(id)) return undefined;
  if (!PROVINCES.has(Number(id.slice(0, 2)))) return undefined;
  const y = Number(id.slice(6, 10)), m = Number(id.slice(10, 12)), d = Number(id.slice(12, 14));
  const date = new Date(Date.UTC(y, m - 1, d));
  if (y < 1900 || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  if (checkDigit(id.slice(0, 17)) !== id[17]) return undefined;
  return { birth: { y, m, d } };
}

/** Full years between the birth date and `now` (Beijing time). */
export function ageAt(birth: { y: number; m: number; d: number }, now: number): number {
  return ageOn(birth, now);
}

/** `1****************X`: only the first and the last character stay visible. */
export function maskIdNumber(id: string): string {
  return `${id.slice(0, 1)}${'*'.repeat(Math.max(0, id.length - 2))}${id.slice(-1)}`;
}

/** `*三`: only the last character stays visible. */
export function maskName(name: string): string {
  const chars = [...name];
  return chars.length <= 1 ? '*' : `${'*'.repeat(chars.length - 1)}${chars[chars.length - 1]}`;
}
