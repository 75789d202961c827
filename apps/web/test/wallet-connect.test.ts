/** The link-wallet flow with a fake provider and a stubbed API. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { connectWallet, type ConnectStep, type StepState } from '../app/features/wallet/connect.ts';
import type { ConfluxProvider } from '../app/lib/wallet/provider.ts';
import { onAccountsChanged } from '../app/features/wallet/watch.ts';
import { useToastStore } from '../app/stores/toast.ts';
import { useUserStore } from '../app/stores/user.ts';
import { useWalletStore } from '../app/stores/wallet.ts';

const ADDRESS = toBase32Address('0x1dddddddddddddddddddddddddddddddddddddd1', 1029);
const TESTNET_ADDRESS = toBase32Address('0x1dddddddddddddddddddddddddddddddddddddd1', 1);
const SIG = `0x${'22'.repeat(64)}00`;
const t = (key: string) => key;

function fakeProvider(over: Record<string, (params: any) => unknown> = {}) {
  const calls: { method: string; params: unknown }[] = [];
  const provider: ConfluxProvider = {
    async request({ method, params }) {
      calls.push({ method, params });
      const handlers: Record<string, (params: any) => unknown> = {
        cfx_requestAccounts: () => [ADDRESS],
        cfx_chainId: () => '0x405',
        personal_sign: () => SIG,
        wallet_revokePermissions: () => null,
        ...over,
      };
      const h = handlers[method];
      if (!h) throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
      return h(params);
    },
  };
  return { provider, calls };
}

const env = (status: string, data: unknown = null, message = '') => ({ status, code: status, data, message, msg: '' });

/** Stubs fetch: answers per API path; records the bodies. */
function stubApi(answers: Record<string, unknown>) {
  const bodies: Record<string, unknown> = {};
  const fetchFn = vi.fn(async (url: string, init?: RequestInit) => {
    const path = url.replace('/mvapi/public', '');
    bodies[path] = init?.body ? JSON.parse(String(init.body)) : undefined;
    const answer = answers[path] ?? env('9999', null, 'unexpected');
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchFn);
  return { fetchFn, bodies };
}

const toasts = () => useToastStore.getState().items.map((i) => ({ kind: i.kind, text: i.text }));

beforeEach(() => {
  useToastStore.setState({ items: [] });
  useUserStore.setState({ token: 'T', walletAddress: '', isLoginWallet: false });
  useWalletStore.setState({ kind: '' });
});
afterEach(() => vi.unstubAllGlobals());

describe('connectWallet', () => {
  it('without a login: the red "log in first" message, the wallet is not asked', async () => {
    useUserStore.setState({ token: '' });
    const { provider, calls } = fakeProvider();
    const r = await connectWallet(provider, 'fluent', { t });
    expect(r).toMatchObject({ ok: false, failure: 'needLogin' });
    expect(calls).toEqual([]);
    expect(toasts()).toEqual([{ kind: 'error', text: 'wallet.loginFirst' }]);
  });

  it('links: requestAccounts → chainId → walletchallenge → personal_sign [message, address] → walletlogin', async () => {
    const api = stubApi({
      '/api/user/v1/walletchallenge': env('000000', { message: 'sign me 你好', expiresAt: 1 }),
      '/api/user/v1/walletlogin': env('000000', { walletAddress: ADDRESS }, '钱包连接成功'),
    });
    const { provider, calls } = fakeProvider();
    const steps: [ConnectStep, StepState][] = [];
    const r = await connectWallet(provider, 'dev', { t, onStep: (s, st) => steps.push([s, st]) });
    expect(r).toEqual({ ok: true, walletAddress: ADDRESS });
    expect(calls.map((c) => c.method)).toEqual(['cfx_requestAccounts', 'cfx_chainId', 'personal_sign']);
    expect(calls[2]!.params).toEqual(['sign me 你好', ADDRESS]);
    expect(api.bodies['/api/user/v1/walletchallenge']).toEqual({ walletAddress: ADDRESS });
    expect(api.bodies['/api/user/v1/walletlogin']).toEqual({ walletAddress: ADDRESS, code: SIG });
    expect(useUserStore.getState()).toMatchObject({ walletAddress: ADDRESS, isLoginWallet: true });
    expect(useWalletStore.getState().kind).toBe('dev');
    expect(toasts()).toEqual([{ kind: 'success', text: '钱包连接成功' }]);
    expect(steps.filter(([, st]) => st === 'done').map(([s]) => s)).toEqual(['authorize', 'network', 'address', 'sign', 'link']);
  });

  it('network other than 1029: the spec message (1 s warning), connection cancelled before any server call', async () => {
    const api = stubApi({});
    const { provider, calls } = fakeProvider({ cfx_chainId: () => '0x1' });
    const r = await connectWallet(provider, 'fluent', { t });
    expect(r).toMatchObject({ ok: false, failure: 'wrongNetwork', step: 'network', message: 'wallet.switchNetwork' });
    expect(calls.map((c) => c.method)).toEqual(['cfx_requestAccounts', 'cfx_chainId']);
    expect(api.fetchFn).not.toHaveBeenCalled();
    expect(toasts()).toEqual([{ kind: 'warning', text: 'wallet.switchNetwork' }]);
    expect(useUserStore.getState().isLoginWallet).toBe(false);
  });

  it('an address without the main-network prefix: authorisation revoked, disconnected', async () => {
    const api = stubApi({});
    const { provider, calls } = fakeProvider({ cfx_requestAccounts: () => [TESTNET_ADDRESS] });
    useUserStore.setState({ walletAddress: ADDRESS, isLoginWallet: true });
    const r = await connectWallet(provider, 'fluent', { t });
    expect(r).toMatchObject({ ok: false, failure: 'badAddress', step: 'address' });
    expect(calls.map((c) => c.method)).toEqual(['cfx_requestAccounts', 'cfx_chainId', 'wallet_revokePermissions']);
    expect(calls[2]!.params).toEqual([{ cfx_accounts: {} }]);
    expect(api.fetchFn).not.toHaveBeenCalled();
    expect(useUserStore.getState().isLoginWallet).toBe(false);
  });

  it('a wallet without revocation support still ends disconnected', async () => {
    stubApi({});
    const { provider } = fakeProvider({
      cfx_requestAccounts: () => ['0x1dddddddddddddddddddddddddddddddddddddd1'],
      wallet_revokePermissions: () => Promise.reject(Object.assign(new Error('nope'), { code: 4200 })),
    });
    const r = await connectWallet(provider, 'fluent', { t });
    expect(r).toMatchObject({ ok: false, failure: 'badAddress' });
  });

  it('authorisation refused (4001): disconnected with the rejection text', async () => {
    const { provider } = fakeProvider({ cfx_requestAccounts: () => Promise.reject(Object.assign(new Error('User rejected'), { code: 4001 })) });
    const steps: [ConnectStep, StepState, string?][] = [];
    const r = await connectWallet(provider, 'fluent', { t, onStep: (s, st, m) => steps.push([s, st, m]) });
    expect(r).toMatchObject({ ok: false, failure: 'rejected', step: 'authorize', message: 'wallet.errors.rejected' });
    expect(steps.at(-1)).toEqual(['authorize', 'failed', 'wallet.errors.rejected']);
  });

  it('signature refused: nothing is linked', async () => {
    const api = stubApi({ '/api/user/v1/walletchallenge': env('000000', { message: 'm', expiresAt: 1 }) });
    const { provider } = fakeProvider({ personal_sign: () => Promise.reject(Object.assign(new Error('denied'), { code: 4001 })) });
    const r = await connectWallet(provider, 'fluent', { t });
    expect(r).toMatchObject({ ok: false, failure: 'rejected', step: 'sign' });
    expect(api.fetchFn).toHaveBeenCalledTimes(1);
    expect(useUserStore.getState().isLoginWallet).toBe(false);
  });

  it('walletlogin not 000000: disconnected, the server message is shown', async () => {
    stubApi({
      '/api/user/v1/walletchallenge': env('000000', { message: 'm', expiresAt: 1 }),
      '/api/user/v1/walletlogin': env('1009', null, '该钱包已绑定其他账户'),
    });
    const { provider } = fakeProvider();
    const r = await connectWallet(provider, 'fluent', { t });
    expect(r).toMatchObject({ ok: false, failure: 'server', step: 'link', message: '该钱包已绑定其他账户' });
    expect(useUserStore.getState().isLoginWallet).toBe(false);
    expect(toasts()).toEqual([{ kind: 'error', text: '该钱包已绑定其他账户' }]);
  });
});

describe('accountsChanged on a connected wallet', () => {
  it('another account → disconnected (walletlogout); the same account or a locked wallet ([]) → nothing', async () => {
    const api = stubApi({ '/api/user/v1/walletlogout': env('000000') });
    useUserStore.setState({ walletAddress: ADDRESS, isLoginWallet: true });
    onAccountsChanged([ADDRESS]);
    onAccountsChanged([]);
    expect(useUserStore.getState().isLoginWallet).toBe(true);
    onAccountsChanged([toBase32Address('0x1eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee', 1029)]);
    expect(useUserStore.getState().isLoginWallet).toBe(false);
    expect(api.fetchFn).toHaveBeenCalledTimes(1);
    expect(api.fetchFn.mock.calls[0]![0]).toBe('/mvapi/public/api/user/v1/walletlogout');
  });
});
