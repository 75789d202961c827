import type { AppContext } from '../../context.ts';
import { getBoundCard } from '../payout/index.ts';
import { cardPayAvailable } from '../payout/index.ts';

/** listPayCards: my bound cards that can pay (the active card, masked); none while no payout provider runs. */
export async function listPayCards(ctx: AppContext, userId: number) {
  if (!cardPayAvailable(ctx)) return [];
  const card = await getBoundCard(ctx, userId);
  return card ? [card] : [];
}
