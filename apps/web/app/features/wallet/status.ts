/**
 * Page start: when logged in, once the wallet provider is ready (Fluent injects
 * asynchronously; the dev wallet is ready when /chain/v1/info says devWallet), ask
 * walletloginstatus and store {walletAddress, isLoginWallet}. Loaded lazily by root.tsx.
 *
 * The provider used is the kind linked last in this browser when it is available, else Fluent,
 * else the dev wallet. With no wallet at all nothing is asked (the link-wallet button stays).
 */
import { getChainInfo } from '../../lib/chain-info.ts';
import { useUserStore } from '../../stores/user.ts';
import { useWalletStore, type WalletKind } from '../../stores/wallet.ts';
import { walletLoginStatus } from './api/wallet-login-status.ts';
import { availableWallets, kindsOf, providerFor } from '../../lib/wallet/wallets.ts';

/** Resolves to the kind used, or '' when no wallet provider is ready or the user is logged out. */
export async function restoreWalletStatus(): Promise<WalletKind | ''> {
  const token = useUserStore.getState().token;
  if (!token) return '';
  const stored = useWalletStore.getState().kind;
  // A dev-wallet link needs no wait for Fluent's late injection; otherwise give Fluent 3 s.
  const info = await getChainInfo();
  const devReady = Boolean(info?.devWallet && info.rpcPath);
  const availability = await availableWallets(stored === 'dev' && devReady ? 0 : 3000);
  const kinds = kindsOf(availability);
  const kind: WalletKind | '' = stored && kinds.includes(stored) ? stored : (kinds[0] ?? '');
  if (!kind) return '';
  const r = await walletLoginStatus();
  if (!r.ok || !r.data || useUserStore.getState().token !== token) return '';
  useUserStore.getState().setWallet(r.data.walletAddress, r.data.isLoginWallet);
  if (r.data.isLoginWallet) {
    if (kind !== stored) useWalletStore.getState().setKind(kind);
    if (kind === 'fluent') {
      const provider = await providerFor(kind, availability);
      // The watcher needs the address codec: its own chunk, only for Fluent.
      if (provider) void import('./watch.ts').then((m) => m.watchProvider(provider));
    }
  }
  return kind;
}
