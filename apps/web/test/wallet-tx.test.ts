/** Wallet action helpers against a fake provider object. */
import { describe, expect, it, vi } from 'vitest';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { exchangeDomain, hashTypedData, listOrderTypedData } from '@cfx/protocol/cip23.ts';
import { isUserRejection, parseChainId, toWalletError, walletErrorKey, type ConfluxProvider } from '../app/lib/wallet/provider.ts';
import {
  RECEIPT_POLL,
  sendTransactionAndWait,
  signTypedData,
  txResultKey,
  waitForReceipt,
  withHexAddresses,
} from '../app/lib/wallet/tx.ts';

const HASH = `0x${'ab'.repeat(32)}`;
const SELLER_HEX = '0x1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const SELLER = toBase32Address(SELLER_HEX, 1029);
const EXCHANGE = toBase32Address('0x8bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 1029);
const NFT = toBase32Address('0x8ccccccccccccccccccccccccccccccccccccccc', 1029);

/** A provider whose receipts come from a list (one per ask); records every request. */
function fakeProvider(receipts: unknown[] = [], handlers: Record<string, (params: any) => unknown> = {}) {
  const calls: { method: string; params: unknown }[] = [];
  const provider: ConfluxProvider = {
    request: vi.fn(async ({ method, params }) => {
      calls.push({ method, params });
      if (handlers[method]) return handlers[method]!(params);
      if (method === 'cfx_sendTransaction') return HASH;
      if (method === 'cfx_getTransactionReceipt') {
        const next = receipts.shift();
        if (next instanceof Error) throw next;
        return next ?? null;
      }
      throw Object.assign(new Error(`unexpected ${method}`), { code: 4200 });
    }),
  };
  return { provider, calls };
}

const rejection = () => Object.assign(new Error('User rejected the request.'), { code: 4001 });

describe('waitForReceipt', () => {
  it('defaults to 5 tries, 3000 ms apart', () => {
    expect(RECEIPT_POLL).toEqual({ tries: 5, intervalMs: 3000 });
  });

  it('no receipt → waits and asks again; outcomeStatus 0 → success', async () => {
    const { provider, calls } = fakeProvider([null, null, { transactionHash: HASH, outcomeStatus: '0x0' }]);
    const sleep = vi.fn(async () => {});
    const r = await waitForReceipt(provider, HASH, { sleep });
    expect(r.status).toBe('success');
    expect(calls.filter((c) => c.method === 'cfx_getTransactionReceipt')).toHaveLength(3);
    expect(calls[0]!.params).toEqual([HASH]);
    expect(sleep.mock.calls).toEqual([[3000, undefined], [3000, undefined]]);
  });

  it('any other outcomeStatus → failed, with the node reason', async () => {
    const { provider } = fakeProvider([{ transactionHash: HASH, outcomeStatus: '0x1', txExecErrorMsg: 'Vm reverted, ' }]);
    const r = await waitForReceipt(provider, HASH, { sleep: async () => {} });
    expect(r).toMatchObject({ status: 'failed', reason: 'Vm reverted, ' });
    expect(txResultKey(r)).toBe('wallet.errors.txFailed');
    const numeric = await waitForReceipt(fakeProvider([{ transactionHash: HASH, outcomeStatus: 0 }]).provider, HASH);
    expect(numeric.status).toBe('success');
    expect(txResultKey(numeric)).toBeNull();
  });

  it('after the retry limit the result is not successful (timeout); failed asks count as "no receipt"', async () => {
    const { provider, calls } = fakeProvider([null, new Error('network'), null, null, null, { outcomeStatus: '0x0' }]);
    const sleep = vi.fn(async () => {});
    const r = await waitForReceipt(provider, HASH, { sleep });
    expect(r).toEqual({ status: 'timeout', hash: HASH });
    expect(txResultKey(r)).toBe('wallet.errors.txTimeout');
    expect(calls).toHaveLength(5);
    expect(sleep).toHaveBeenCalledTimes(4);
  });

  it('tries and interval are configurable; real timers work', async () => {
    const { provider, calls } = fakeProvider([null, { outcomeStatus: '0x0' }]);
    const started = Date.now();
    const r = await waitForReceipt(provider, HASH, { tries: 2, intervalMs: 20 });
    expect(r.status).toBe('success');
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
    expect(calls).toHaveLength(2);
    const once = fakeProvider([null, { outcomeStatus: '0x0' }]);
    expect((await waitForReceipt(once.provider, HASH, { tries: 1 })).status).toBe('timeout');
  });

  it('an aborted wait rejects', async () => {
    const ctrl = new AbortController();
    const { provider } = fakeProvider([null, null]);
    const p = waitForReceipt(provider, HASH, { intervalMs: 10_000, signal: ctrl.signal });
    ctrl.abort(new Error('left the page'));
    await expect(p).rejects.toThrow('left the page');
  });
});

describe('sendTransactionAndWait', () => {
  it('sends with cfx_sendTransaction, reports the hash, then polls the receipt', async () => {
    const { provider, calls } = fakeProvider([{ transactionHash: HASH, outcomeStatus: '0x0' }]);
    const onSent = vi.fn();
    const tx = { from: SELLER, to: NFT, data: '0x095ea7b3' };
    const r = await sendTransactionAndWait(provider, tx, { onSent });
    expect(r).toMatchObject({ status: 'success', hash: HASH });
    expect(onSent).toHaveBeenCalledWith(HASH);
    expect(calls[0]).toEqual({ method: 'cfx_sendTransaction', params: [tx] });
  });

  it('a refusal in the wallet (4001) is a WalletError with the rejection text key; nothing is polled', async () => {
    const { provider, calls } = fakeProvider([], { cfx_sendTransaction: () => Promise.reject(rejection()) });
    const err = await sendTransactionAndWait(provider, { from: SELLER, to: NFT }).catch((e: unknown) => e);
    expect(isUserRejection(err)).toBe(true);
    expect(walletErrorKey(err)).toBe('wallet.errors.rejected');
    expect(calls).toHaveLength(1);
  });

  it('other wallet errors keep their code and map to the generic failure text', async () => {
    const { provider } = fakeProvider([], { cfx_sendTransaction: () => Promise.reject(Object.assign(new Error('NotEnoughCash'), { code: -32603 })) });
    const err = await sendTransactionAndWait(provider, { from: SELLER, to: NFT }).catch((e: unknown) => e);
    expect(toWalletError(err)).toMatchObject({ reason: 'failed', code: -32603, message: 'NotEnoughCash' });
    expect(walletErrorKey(err)).toBe('wallet.errors.failed');
    const bad = fakeProvider([], { cfx_sendTransaction: () => 'not-a-hash' });
    await expect(sendTransactionAndWait(bad.provider, { from: SELLER })).rejects.toMatchObject({ reason: 'failed' });
  });
});

describe('signTypedData', () => {
  const domain = exchangeDomain(1029, EXCHANGE);
  const order = { seller: SELLER, nftToken: NFT, tokenId: 3, amount: 9900, sellerOrderId: 'L-3' };
  const SIG = `0x${'11'.repeat(64)}01`;

  it('calls cfx_signTypedData_v4 with [address, JSON typed data] whose addresses are hex', async () => {
    const { provider, calls } = fakeProvider([], { cfx_signTypedData_v4: () => SIG });
    // Build typed data with base32 addresses left in (as a caller might): the helper converts them.
    const td = listOrderTypedData(order, domain);
    const withBase32 = { ...td, domain: { ...td.domain, verifyingContract: EXCHANGE as `0x${string}` }, message: { ...td.message, seller: SELLER as `0x${string}` } };
    expect(await signTypedData(provider, SELLER, withBase32)).toBe(SIG);
    const [address, json] = calls[0]!.params as [string, string];
    expect(address).toBe(SELLER);
    const sent = JSON.parse(json);
    expect(sent.domain).toEqual({ name: '1', version: '1', chainId: 1029, verifyingContract: '0x8bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' });
    expect(sent.message.seller).toBe(SELLER_HEX);
    expect(sent.message.nftToken).toBe('0x8ccccccccccccccccccccccccccccccccccccccc');
    expect(sent.primaryType).toBe('listOrder');
    expect(hashTypedData(sent)).toBe(hashTypedData(td)); // same digest as the protocol's
  });

  it('converts address arrays and nested structs; a non-number chainId is refused', () => {
    const td = {
      types: {
        CIP23Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        Person: [{ name: 'wallets', type: 'address[]' }],
        Mail: [
          { name: 'from', type: 'Person' },
          { name: 'to', type: 'Person[]' },
        ],
      },
      primaryType: 'Mail',
      domain: { name: 'x', version: '1', chainId: 1029, verifyingContract: EXCHANGE as `0x${string}` },
      message: { from: { wallets: [SELLER] }, to: [{ wallets: [NFT, SELLER_HEX] }] },
    };
    const out = withHexAddresses(td);
    expect(out.message).toEqual({ from: { wallets: [SELLER_HEX] }, to: [{ wallets: ['0x8ccccccccccccccccccccccccccccccccccccccc', SELLER_HEX] }] });
    expect(() => withHexAddresses({ ...td, domain: { ...td.domain, chainId: '1029' as unknown as number } })).toThrow(/chainId/);
  });

  it('a refusal is reported as rejected; a malformed signature as failed', async () => {
    const refused = fakeProvider([], { cfx_signTypedData_v4: () => Promise.reject(rejection()) });
    await expect(signTypedData(refused.provider, SELLER, listOrderTypedData(order, domain))).rejects.toMatchObject({ reason: 'rejected' });
    const bad = fakeProvider([], { cfx_signTypedData_v4: () => '0x1234' });
    await expect(signTypedData(bad.provider, SELLER, listOrderTypedData(order, domain))).rejects.toMatchObject({ reason: 'failed' });
  });
});

describe('parseChainId', () => {
  it('reads hex, decimal and numbers', () => {
    expect(parseChainId('0x405')).toBe(1029);
    expect(parseChainId('1029')).toBe(1029);
    expect(parseChainId(1)).toBe(1);
    expect(parseChainId('nope')).toBeNaN();
    expect(parseChainId(undefined)).toBeNaN();
  });
});
