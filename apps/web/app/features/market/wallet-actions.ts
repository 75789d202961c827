/**
 * The seller's wallet for the listing flows: the provider of the wallet linked to the
 * account (Fluent or, on the embedded dev chain, the dev wallet), and the chain actions:
 * Collectible.approve(to, tokenId) and Exchange.cancelOrder(sellerOrderId) sent from that wallet
 * (sponsored; receipt polled: 5 tries, 3 s apart) and the CIP-23 listOrder signature
 * (cfx_signTypedData_v4). Loaded lazily with the flow dialog; the
 * only market module that uses features/wallet (its send-and-wait and sign helpers).
 */
import { sameAddress } from '@cfx/protocol/address.ts';
import type { Cip23TypedData } from '@cfx/protocol/cip23.ts';
import { useUserStore } from '../../stores/user.ts';
import { walletRequest, type ConfluxProvider } from '../wallet/provider.ts';
import { sendTransactionAndWait, signTypedData, type TxResult } from '../wallet/tx.ts';
import { availableWallets, kindsOf, providerFor } from '../wallet/wallets.ts';
import type { PreOpenSale } from './api/types.ts';
import { WalletGateError, approveCalldata, cancelOrderCalldata, type LinkedWallet } from './flows.ts';
import { useWalletStore } from './app-stores.ts';

/**
 * The linked wallet, ready to sign: logged in, a wallet linked and connected in this session, a
 * provider available, and its account the linked address (else a WalletGateError the dialog
 * explains, with a "connect wallet" action where that helps).
 */
export async function linkedWallet(): Promise<LinkedWallet> {
  const user = useUserStore.getState();
  if (!user.token) throw new WalletGateError('needLogin');
  if (!user.walletAddress) throw new WalletGateError('noWallet');
  if (!user.isLoginWallet) throw new WalletGateError('notConnected');
  const stored = useWalletStore.getState().kind;
  const availability = await availableWallets(stored === 'dev' ? 0 : 1500);
  const kinds = kindsOf(availability);
  const kind = stored && kinds.includes(stored) ? stored : kinds[0];
  const provider = kind ? await providerFor(kind, availability) : null;
  if (!provider) throw new WalletGateError('unavailable');
  let accounts = await walletRequest<unknown>(provider, 'cfx_accounts');
  if (!Array.isArray(accounts) || accounts.length === 0) accounts = await walletRequest<unknown>(provider, 'cfx_requestAccounts');
  const list = Array.isArray(accounts) ? accounts.filter((a): a is string => typeof a === 'string') : [];
  const address = list.find((a) => sameAddress(a, user.walletAddress));
  if (!address) throw new WalletGateError('otherAccount');
  return { provider, address };
}

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
