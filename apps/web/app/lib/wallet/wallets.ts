/**
 * Which wallets this page can use: Fluent (window.conflux, injected asynchronously) and, on the
 * embedded dev chain only, the built-in dev wallet. The dev wallet's signer (secp256k1) is a separate
 * chunk, loaded when the dev wallet is first used.
 */
import { getChainInfo, type ChainInfo } from '../chain-info.ts';
import type { WalletKind } from '../../stores/wallet.ts';
import { detectFluent, type ConfluxProvider } from './provider.ts';

export interface WalletAvailability {
  fluent: ConfluxProvider | null;
  /** The chain info when the dev wallet may be offered (info.devWallet), else null. */
  dev: ChainInfo | null;
  info: ChainInfo | null;
}

export async function availableWallets(fluentTimeoutMs?: number): Promise<WalletAvailability> {
  const [fluent, info] = await Promise.all([detectFluent(fluentTimeoutMs), getChainInfo()]);
  const dev = info && info.devWallet && info.rpcPath ? info : null;
  return { fluent, dev, info };
}

export function kindsOf(a: WalletAvailability): WalletKind[] {
  const kinds: WalletKind[] = [];
  if (a.fluent) kinds.push('fluent');
  if (a.dev) kinds.push('dev');
  return kinds;
}

/** The provider of a wallet kind, or null when that wallet is not available here. */
export async function providerFor(kind: WalletKind, a: WalletAvailability): Promise<ConfluxProvider | null> {
  if (kind === 'fluent') return a.fluent;
  if (!a.dev) return null;
  const { getDevWalletProvider } = await import('./dev-wallet/provider.ts');
  return getDevWalletProvider(a.dev);
}
