import type { Cost } from '@cfx/contract/market.ts';
import type { Lang } from '@cfx/contract/messages.ts';
import type { AppContext } from '../../context.ts';

/**
 * Fees of a free-market sale (consignment or accepted bid): the platform commission and the creator
 * royalty of the collectible's release, each a per-mille rate of the price, in whole fen:
 *   commission = floor((price × permille + 500) / 1000)   (half up)
 *   royalty    = floor(price × permille / 1000)           (down; the remainder stays with the seller)
 * e.g. 5 % commission of ￥0.10 (10 fen) = 0.5 fen → 1 fen; a 5 % royalty of 10 fen → 0, of 199 fen → 9.
 * The buyer pays the price; the seller is credited price − commission − royalty, the creator the royalty.
 */
export function feeOf(priceFen: number, permille: number): number {
  return Math.floor((priceFen * permille + 500) / 1000);
}

/** A creator royalty in fen: rounded down (the fen left over stays with the seller). */
export function royaltyFenOf(priceFen: number, permille: number): number {
  return Math.floor((priceFen * permille) / 1000);
}

/**
 * The royalty rate of a release: its own `projects.royalty_permille` (0–100) or, when the release
 * does not set one (NULL), the platform default ROYALTY_PERMILLE.
 */
export function royaltyPermilleOf(ctx: AppContext, own: number | null | undefined): number {
  return own === null || own === undefined ? ctx.config.market.royaltyPermille : Number(own);
}

export interface Fees {
  commissionFen: number;
  royaltyFen: number;
  incomeFen: number;
}

export function computeFees(priceFen: number, commissionPermille: number, royaltyPermille: number): Fees {
  const commissionFen = feeOf(priceFen, commissionPermille);
  const royaltyFen = royaltyFenOf(priceFen, royaltyPermille);
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
  return { priceFen, total: f.commissionFen + f.royaltyFen, costs, incomeFen: f.incomeFen, royaltyPermille, royaltyFen: f.royaltyFen };
}
