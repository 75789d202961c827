/** What the market dialog is asked to do (kept out of the lazy dialog chunk so callers stay small). */
export interface DialogGoods {
  id: number;
  name: string;
  image: string;
  /** Current asking price (off shelf), else null. */
  salePriceFen: number | null;
  /** Suggested price for a new listing (the last trade), else null. */
  lastPriceFen: number | null;
}

export type MarketDialogRequest =
  | { kind: 'sell'; goods: DialogGoods }
  | { kind: 'offShelf'; goods: DialogGoods }
  | { kind: 'agree'; goods: DialogGoods; bid: { id: number; amountFen: number; bidderNickname: string } };
