import type { Cost } from '@cfx/contract/market.ts';
import type { Lang } from '@cfx/contract/messages.ts';

/**
 * Fees of a free-market sale (spec §1): the platform commission and an optional creator royalty,
 * each a per-mille rate of the price, each rounded to whole fen half up:
 *   fee = floor((price × permille + 500) / 1000)
 * e.g. 5% of ￥0.10 (10 fen) = 0.5 fen → 1 fen; of 9 fen = 0.45 → 0. The buyer pays the price;
 * the seller is credited price − commission − royalty.
 */
export function feeOf(priceFen: number, permille: number): number {
  return Math.floor((priceFen * permille + 500) / 1000);
}

export interface Fees {
  commissionFen: number;
  royaltyFen: number;
  incomeFen: number;
}

export function computeFees(priceFen: number, commissionPermille: number, royaltyPermille: number): Fees {
  const commissionFen = feeOf(priceFen, commissionPermille);
  const royaltyFen = feeOf(priceFen, royaltyPermille);
  return { commissionFen, royaltyFen, incomeFen: priceFen - commissionFen - royaltyFen };
}

const NAMES = {
  commission: { zh: '平台服务费', en: 'platform commission' },
  royalty: { zh: '创作者版税', en: 'creator royalty' },
} as const;

export function costOf(priceFen: number, commissionPermille: number, royaltyPermille: number, lang: Lang): Cost {
  const f = computeFees(priceFen, commissionPermille, royaltyPermille);
  const costs: Cost['costs'] = [{ type: 'commission', name: NAMES.commission[lang], permille: commissionPermille, amountFen: f.commissionFen }];
  if (royaltyPermille > 0) costs.push({ type: 'royalty', name: NAMES.royalty[lang], permille: royaltyPermille, amountFen: f.royaltyFen });
  return { priceFen, total: f.commissionFen + f.royaltyFen, costs, incomeFen: f.incomeFen };
}
