/** The real dependencies of the market flows (API calls + the linked wallet). Lazy, with the flow dialog. */
import { walletErrorKey } from '../../lib/wallet/provider.ts';
import { agreeBid } from './api/agree-bid.ts';
import { closeSale } from './api/close-sale.ts';
import { openCloseNotify } from './api/open-close-notify.ts';
import { openSale } from './api/open-sale.ts';
import { preOpenSale } from './api/pre-open-sale.ts';
import type { FlowDeps } from './flows.ts';
import { approveToken, cancelSellerOrder, linkedWallet, signOrder } from './wallet-actions.ts';

export function flowDeps(t: FlowDeps['t']): FlowDeps {
  return {
    t,
    linkedWallet,
    approve: (provider, tx, onSent) => approveToken(provider, tx, onSent),
    cancelOrder: (provider, tx, onSent) => cancelSellerOrder(provider, tx, onSent),
    sign: (provider, address, typedData) => signOrder(provider, address, typedData),
    walletErrorText: (err) => t(walletErrorKey(err)),
    preOpenSale,
    openSale,
    agreeBid,
    closeSale,
    notify: openCloseNotify,
  };
}
