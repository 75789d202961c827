import { BANK_LOGO_PREFIX } from '@cfx/contract/payouts.ts';
import type { BankInfo } from './bank-bins.ts';

/** The logo URL of a bank (an SVG badge drawn by code: its colour and the character it is known by). */
export const bankLogoUrl = (code: string) => `${BANK_LOGO_PREFIX}${code}.svg`;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function bankLogoSvg(bank: BankInfo): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64" role="img" aria-label="${esc(bank.name)}"><circle cx="32" cy="32" r="30" fill="${esc(bank.colour)}"/><circle cx="32" cy="32" r="24" fill="none" stroke="#fff" stroke-opacity=".55" stroke-width="2"/><text x="32" y="33" fill="#fff" font-family="PingFang SC,Microsoft YaHei,Noto Sans CJK SC,sans-serif" font-size="26" font-weight="700" text-anchor="middle" dominant-baseline="central">${esc(bank.glyph)}</text></svg>`;
}
