/**
 * Follows the linked wallet after it is connected (Fluent events `accountsChanged` / `chainChanged`):
 * - the wallet now exposes another account (not the linked one) → this session's wallet is
 *   disconnected (walletlogout) and the link-wallet button returns; an empty list (a locked wallet)
 *   changes nothing;
 * - the wallet switched away from network 1029 → the spec's switch-network message.
 */
import { MAINNET_NETWORK_ID, sameAddress } from '@cfx/protocol/address.ts';
import { browserT } from '../../i18n/index.ts';
import { toast } from '../../stores/toast.ts';
import { useUserStore } from '../../stores/user.ts';
import { walletLogout } from './api/wallet-logout.ts';
import { parseChainId, type ConfluxProvider } from '../../lib/wallet/provider.ts';

const watched = new WeakSet<ConfluxProvider>();

export function onAccountsChanged(accounts: unknown) {
  const user = useUserStore.getState();
  if (!user.token || !user.isLoginWallet || !user.walletAddress) return;
  if (!Array.isArray(accounts) || accounts.length === 0) return;
  if (accounts.some((a) => typeof a === 'string' && sameAddress(a, user.walletAddress))) return;
  user.setWallet(user.walletAddress, false);
  void walletLogout({ silent: true });
  toast.info(browserT()('wallet.accountChanged'));
}

export function onChainChanged(chainId: unknown) {
  const user = useUserStore.getState();
  if (!user.isLoginWallet) return;
  if (parseChainId(chainId) !== MAINNET_NETWORK_ID) toast.warning(browserT()('wallet.switchNetwork'));
}

export function watchProvider(provider: ConfluxProvider) {
  if (watched.has(provider) || typeof provider.on !== 'function') return;
  watched.add(provider);
  provider.on('accountsChanged', onAccountsChanged);
  provider.on('chainChanged', onChainChanged);
}
