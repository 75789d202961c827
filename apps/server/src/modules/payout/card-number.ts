import { BANKS, type BankInfo } from './bank-bins.ts';

/**
 * Card numbers: the Luhn (mod 10) checksum, the bank and card kind from the BIN table, and the
 * masked forms shown to users (`6222 **** **** 1234`). A card number is 12-19 digits; spaces and
 * dashes typed by the user are ignored.
 */
export function normaliseCardNo(raw: string): string {
  return raw.replace(/[\s-]/g, '');
}

/** The Luhn checksum of a digit string (the last digit is the check digit). */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The check digit that makes `body` + digit Luhn-valid (tests and the sandbox's documented test cards). */
export function luhnCheckDigit(body: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(body + d)) return String(d);
  throw new Error('unreachable');
}

export type CardLookup = { kind: 'debit' | 'credit'; bank: BankInfo } | { kind: 'unknown' };

const index = (() => {
  // prefix length → length:prefix → bank and kind
  const map = new Map<string, { kind: 'debit' | 'credit'; bank: BankInfo }>();
  const lengths = new Set<number>();
  for (const bank of BANKS) {
    for (const [kind, groups] of [['debit', bank.debit], ['credit', bank.credit]] as const) {
      for (const [len, prefixes] of groups) {
        for (const p of prefixes.split(' ')) {
          lengths.add(p.length);
          const key = `${len}:${p}`;
          if (!map.has(key)) map.set(key, { kind, bank });
        }
      }
    }
  }
  return { map, prefixLengths: [...lengths].sort((a, b) => b - a) };
})();

/** The bank and kind of a card by its BIN and length (the longest matching prefix wins). */
export function lookupCard(digits: string): CardLookup {
  for (const n of index.prefixLengths) {
    if (n >= digits.length) continue;
    const hit = index.map.get(`${digits.length}:${digits.slice(0, n)}`);
    if (hit) return hit;
  }
  return { kind: 'unknown' };
}

export function bankByCode(code: string): BankInfo | undefined {
  return BANKS.find((b) => b.code === code);
}

/** `6222 **** **** 1234`: the first and the last four digits. */
export function maskCardNo(digits: string): string {
  return `${digits.slice(0, 4)} **** **** ${digits.slice(-4)}`;
}

/** `138****8000` */
export function maskMobile(mobile: string): string {
  return mobile.replace(/^(\d{3})\d{4}(\d{4})$/, '$1****$2');
}
