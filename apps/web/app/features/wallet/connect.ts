/**
 * Linking a wallet:
 *
 *  0. logged in, else the red "please log in first, then link a wallet";
 *  1. authorise: cfx_requestAccounts (refused → disconnected);
 *  2. network: cfx_chainId must be 1029 (0x405), else 请在钱包里将网络切换到Conflux正式网 for 1 s and
 *     the connection is cancelled;
 *  3. address: the first account must be a main-network `cfx:` address, else the authorisation is
 *     revoked (wallet_revokePermissions when the wallet supports it) and the wallet is disconnected;
 *  4. sign: POST walletchallenge {walletAddress} → personal_sign [message, address];
 *  5. link: POST walletlogin {walletAddress, code}; on 000000 the address is saved and the wallet is
 *     connected (isLoginWallet), otherwise disconnected.
 *
 * `onStep` reports each step's state for the dialog.
 */
import { isMainnetAddress, MAINNET_NETWORK_ID } from '@cfx/protocol/address.ts';
import { toast } from '../../stores/toast.ts';
import { useUserStore } from '../../stores/user.ts';
import { useWalletStore, type WalletKind } from '../../stores/wallet.ts';
import { walletChallenge } from './api/wallet-challenge.ts';
import { walletLogin } from './api/wallet-login.ts';
import { type ConfluxProvider, parseChainId, toWalletError, walletErrorKey, walletRequest } from '../../lib/wallet/provider.ts';
import { watchProvider } from './watch.ts';

export const CONNECT_STEPS = ['authorize', 'network', 'address', 'sign', 'link'] as const;
export type ConnectStep = (typeof CONNECT_STEPS)[number];
export type StepState = 'active' | 'done' | 'failed';

export type ConnectFailure = 'needLogin' | 'rejected' | 'noAccount' | 'wrongNetwork' | 'badAddress' | 'server' | 'failed';

export type ConnectResult =
  | { ok: true; walletAddress: string }
  | { ok: false; failure: ConnectFailure; step: ConnectStep | null; message: string };

/** Translate function (`useTranslation().t` or `browserT()`). */
export type Translate = (key: any) => string;

export interface ConnectOptions {
  t: Translate;
  onStep?: (step: ConnectStep, state: StepState, message?: string) => void;
}

/** Best-effort revocation of the site's account access (Fluent / EIP-2255); a refusal is ignored. */
export async function revokeAuthorization(provider: ConfluxProvider): Promise<void> {
  try {
    await provider.request({ method: 'wallet_revokePermissions', params: [{ cfx_accounts: {} }] });
  } catch {
    /* the wallet does not support revocation; marking the wallet disconnected is enough */
  }
}

function markDisconnected() {
  const user = useUserStore.getState();
  user.setWallet(user.walletAddress, false);
}

export async function connectWallet(provider: ConfluxProvider, kind: WalletKind, { t, onStep }: ConnectOptions): Promise<ConnectResult> {
  const token = useUserStore.getState().token;
  if (!token) {
    toast.error(t('wallet.loginFirst'));
    return { ok: false, failure: 'needLogin', step: null, message: t('wallet.loginFirst') };
  }
  let step: ConnectStep = 'authorize';
  const fail = (failure: ConnectFailure, message: string): ConnectResult => {
    markDisconnected();
    onStep?.(step, 'failed', message);
    return { ok: false, failure, step, message };
  };
  const walletFail = (err: unknown): ConnectResult => {
    const e = toWalletError(err);
    return fail(e.reason === 'rejected' ? 'rejected' : 'failed', t(walletErrorKey(e)));
  };
  // The session changed (logout, another login) while the wallet was waiting: stop quietly.
  const stale = () => useUserStore.getState().token !== token;

  // 1. authorise
  onStep?.(step, 'active');
  let accounts: unknown;
  try {
    accounts = await walletRequest<unknown>(provider, 'cfx_requestAccounts');
  } catch (err) {
    return walletFail(err);
  }
  const address = Array.isArray(accounts) && typeof accounts[0] === 'string' ? accounts[0] : '';
  if (!address) return fail('noAccount', t('wallet.errors.noAccount'));
  onStep?.(step, 'done');

  // 2. network 1029
  step = 'network';
  onStep?.(step, 'active');
  let chainId: number;
  try {
    chainId = parseChainId(await walletRequest<unknown>(provider, 'cfx_chainId'));
  } catch (err) {
    return walletFail(err);
  }
  if (chainId !== MAINNET_NETWORK_ID) {
    toast.warning(t('wallet.switchNetwork'));
    return fail('wrongNetwork', t('wallet.switchNetwork'));
  }
  onStep?.(step, 'done');

  // 3. main-network address
  step = 'address';
  onStep?.(step, 'active');
  if (!isMainnetAddress(address)) {
    await revokeAuthorization(provider);
    toast.error(t('wallet.badAddress'));
    return fail('badAddress', t('wallet.badAddress'));
  }
  onStep?.(step, 'done');

  // 4. challenge + personal_sign
  step = 'sign';
  onStep?.(step, 'active');
  const challenge = await walletChallenge(address);
  if (stale()) return { ok: false, failure: 'needLogin', step, message: '' };
  if (!challenge.ok || !challenge.data) return fail('server', challenge.message || t('common.requestFailed'));
  let code: unknown;
  try {
    code = await walletRequest<unknown>(provider, 'personal_sign', [challenge.data.message, address]);
  } catch (err) {
    return walletFail(err);
  }
  if (typeof code !== 'string' || !code) return fail('failed', t('wallet.errors.failed'));
  onStep?.(step, 'done');

  // 5. walletlogin
  step = 'link';
  onStep?.(step, 'active');
  if (stale()) return { ok: false, failure: 'needLogin', step, message: '' };
  const linked = await walletLogin(address, code);
  if (stale()) return { ok: false, failure: 'needLogin', step, message: '' };
  if (!linked.ok) return fail('server', linked.message || t('common.requestFailed'));
  const walletAddress = linked.data?.walletAddress || address;
  useUserStore.getState().setWallet(walletAddress, true);
  useWalletStore.getState().setKind(kind);
  watchProvider(provider);
  onStep?.(step, 'done');
  toast.success(linked.message || t('wallet.linked'));
  return { ok: true, walletAddress };
}
