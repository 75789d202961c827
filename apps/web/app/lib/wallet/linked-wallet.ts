import { sameAddress } from '@cfx/protocol/address.ts';
import { useUserStore } from '../../stores/user.ts';
import { useWalletStore } from '../../stores/app-stores.ts';
import { WalletGateError, type LinkedWallet } from './gate.ts';
import { walletRequest } from './provider.ts';
import { availableWallets, kindsOf, providerFor } from './wallets.ts';

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
