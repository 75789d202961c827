/**
 * The seller's wallet for the listing flows: the provider of the wallet linked to the
 * account (Fluent or, on the embedded dev chain, the dev wallet), and the chain actions:
 * Collectible.approve(to, tokenId) and Exchange.cancelOrder(sellerOrderId) sent from that wallet
 * (sponsored; receipt polled: 5 tries, 3 s apart) and the CIP-23 listOrder signature
 * (cfx_signTypedData_v4). Loaded lazily with the flow dialog; the
 * only market module that uses lib/wallet (its send-and-wait and sign helpers).
 */
import type { Cip23TypedData } from '@cfx/protocol/cip23.ts';
import type { ConfluxProvider } from '../../lib/wallet/provider.ts';
import { sendTransactionAndWait, signTypedData, type TxResult } from '../../lib/wallet/tx.ts';
import type { PreOpenSale } from './api/types.ts';
import { approveCalldata, cancelOrderCalldata } from './flows.ts';

/** The linked wallet, ready to sign (lib/wallet/linked-wallet.ts; the goods flows use it too). */
export { linkedWallet } from '../../lib/wallet/linked-wallet.ts';

/** Collectible.approve(to, tokenId) from `from`; `onSent` gets the hash as soon as the wallet returns it. */
export function approveToken(
  provider: ConfluxProvider,
  tx: { from: string; collectible: string; to: string; tokenId: string },
  onSent: (hash: string) => void,
): Promise<TxResult> {
  return sendTransactionAndWait(provider, { from: tx.from, to: tx.collectible, data: approveCalldata(tx.to, tx.tokenId) }, { onSent });
}

/** Exchange.cancelOrder(sellerOrderId) from `from`: that signed order can never fill afterwards. */
export function cancelSellerOrder(
  provider: ConfluxProvider,
  tx: { from: string; exchange: string; sellerOrderId: string },
  onSent: (hash: string) => void,
): Promise<TxResult> {
  return sendTransactionAndWait(provider, { from: tx.from, to: tx.exchange, data: cancelOrderCalldata(tx.sellerOrderId) }, { onSent });
}

/** Signs the listOrder typed data preOpenSale returned (its types include CIP23Domain). */
export function signOrder(provider: ConfluxProvider, address: string, typedData: PreOpenSale['typedData']): Promise<string> {
  return signTypedData(provider, address, typedData as unknown as Cip23TypedData<object>);
}
