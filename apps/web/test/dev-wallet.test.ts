/**
 * The dev wallet's signer, cross-checked against js-conflux-sdk (what the server and the chain
 * tooling use): addresses, personal_sign (PersonalMessage), typed-data signatures (Message), and
 * the Core transaction encoding (Transaction). Then the provider's request() with a fake RPC proxy.
 */
import { describe, expect, it, vi } from 'vitest';
import { Message, PersonalMessage, Transaction, format, sign } from 'js-conflux-sdk';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { exchangeDomain, listOrderDigest, listOrderTypedData } from '@cfx/protocol/cip23.ts';
import {
  type CoreTransaction,
  type Hex,
  personalMessageHash,
  personalSign,
  privateKeyToHexAddress,
  rlpEncode,
  signatureHex,
  signDigest,
  signTransaction,
  bytesOf,
  hex,
} from '../app/lib/wallet/dev-wallet/crypto.ts';
import { DevWalletProvider } from '../app/lib/wallet/dev-wallet/provider.ts';
import { DEV_WALLET_STORAGE, memoryStore } from '../app/lib/wallet/dev-wallet/keys.ts';
import { signTypedData, sendTransactionAndWait } from '../app/lib/wallet/tx.ts';

const KEYS: Hex[] = [
  '0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  '0x46b9e861b63d3509c88b7817275a30d22d62c8cd8fa6486ddee35ef0d8e0495f',
  '0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140', // n - 1
];

/** The challenge text the server asks to sign (apps/server src/modules/wallet/link-wallet.ts). */
const CHALLENGE = [
  '数字藏品市场 · 绑定钱包 / Link wallet',
  'Address: cfx:aak2rra2njvd77ezwjvx04kkds9fzagfe6ku8scz91',
  '账户 Account: 42',
  '随机数 Nonce: 0f1e2d3c4b5a69788796a5b4c3d2e1f0',
  '时间 Issued: 2025-01-01T00:00:00.000Z',
].join('\n');

const EXCHANGE = toBase32Address('0x8b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e', 1029);
const COLLECTIBLE = toBase32Address('0x8a11111111111111111111111111111111111111', 1029);
const sdkAddress = (key: Hex, networkId = 1029) => format.address(sign.privateKeyToAddress(format.hexBuffer(key)), networkId);

describe('dev wallet crypto vs js-conflux-sdk', () => {
  it('derives the same Core address (0x1… user address)', () => {
    for (const key of KEYS) {
      const mine = privateKeyToHexAddress(key);
      expect(mine).toBe(format.hexAddress(sdkAddress(key)));
      expect(mine.startsWith('0x1')).toBe(true);
      expect(toBase32Address(mine, 1029)).toBe(sdkAddress(key));
    }
  });

  it('personal_sign: byte-identical to PersonalMessage.sign, and the server-side recovery finds the signer', () => {
    for (const key of KEYS) {
      for (const message of [CHALLENGE, 'Hello world!', '', '0xdeadbeef', 'x'.repeat(300)]) {
        const mine = personalSign(key, message);
        expect(mine).toBe(PersonalMessage.sign(key, message));
        expect(hex(personalMessageHash(message))).toBe(PersonalMessage.personalHash(message));
        expect(mine).toMatch(/^0x[0-9a-f]{128}0[01]$/); // v = 0/1
        // What apps/server recoverPersonalSigner does:
        const publicKey = PersonalMessage.recover(mine, message);
        expect(format.address(sign.publicKeyToAddress(format.hexBuffer(publicKey)), 1029)).toBe(sdkAddress(key));
      }
    }
  });

  it('typed data: the CIP-23 digest signature equals Message.sign and recovers to the seller', () => {
    const key = KEYS[1]!;
    const seller = sdkAddress(key);
    const domain = exchangeDomain(1029, EXCHANGE);
    const order = { seller, nftToken: COLLECTIBLE, tokenId: 7, amount: 12345, sellerOrderId: 'S-1' };
    const digest = listOrderDigest(order, domain);
    const mine = signatureHex(signDigest(key, bytesOf(digest)));
    expect(mine).toBe(Message.sign(key, digest));
    const pub = Message.recover(mine, digest);
    expect(format.address(sign.publicKeyToAddress(format.hexBuffer(pub)), 1029)).toBe(seller);
    // The typed data handed to the wallet has hex addresses only.
    const td = listOrderTypedData(order, domain);
    expect(td.message.seller).toMatch(/^0x1[0-9a-f]{39}$/);
  });

  const txs: CoreTransaction[] = [
    { nonce: 0n, gasPrice: 1n, gas: 21000n, to: '0x1b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e', value: 0n, storageLimit: 0n, epochHeight: 0n, chainId: 1029n, data: '0x' },
    {
      nonce: 5n,
      gasPrice: 1_000_000_000n,
      gas: 123_456n,
      to: '0x8b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e',
      value: 10n ** 18n,
      storageLimit: 640n,
      epochHeight: 987_654n,
      chainId: 1029n,
      data: `0x095ea7b3${'00'.repeat(12)}8b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e${'0'.repeat(63)}7` as Hex,
    },
    // contract creation (no `to`), long data (> 55 bytes, long RLP length forms), testnet chain id
    { nonce: 300n, gasPrice: 20n, gas: 3_000_000n, to: null, value: 1n, storageLimit: 100_000n, epochHeight: 1n, chainId: 1n, data: `0x${'ab'.repeat(1200)}` as Hex },
  ];

  it('transactions: raw bytes and hash equal js-conflux-sdk Transaction.sign().serialize()', () => {
    for (const key of KEYS) {
      for (const tx of txs) {
        const mine = signTransaction(key, tx);
        const sdkTx = new Transaction({
          nonce: tx.nonce.toString(),
          gasPrice: tx.gasPrice.toString(),
          gas: tx.gas.toString(),
          to: tx.to ? format.address(tx.to, Number(tx.chainId)) : null,
          value: tx.value.toString(),
          storageLimit: tx.storageLimit.toString(),
          epochHeight: tx.epochHeight.toString(),
          chainId: Number(tx.chainId),
          data: tx.data,
        } as any).sign(key, Number(tx.chainId));
        expect(mine.raw).toBe(sdkTx.serialize());
        expect(mine.hash).toBe(sdkTx.hash);
        const decoded = Transaction.decodeRaw(mine.raw) as any;
        expect(decoded.from).toBe(sdkAddress(key, Number(tx.chainId)));
        expect(BigInt(decoded.nonce)).toBe(tx.nonce);
      }
    }
  });

  it('RLP: single bytes, short and long strings and lists', () => {
    expect(hex(rlpEncode(new Uint8Array([0x7f])))).toBe('0x7f');
    expect(hex(rlpEncode(new Uint8Array([0x80])))).toBe('0x8180');
    expect(hex(rlpEncode(new Uint8Array(0)))).toBe('0x80');
    expect(hex(rlpEncode([]))).toBe('0xc0');
    expect(hex(rlpEncode(new Uint8Array(56)))).toBe(`0xb838${'00'.repeat(56)}`);
    expect(hex(rlpEncode([new Uint8Array([1]), [new Uint8Array([2])]]))).toBe('0xc301c102');
  });
});

/** A fake JSON-RPC proxy: records the calls and answers like the embedded node. */
function fakeRpc(answers: Record<string, unknown>) {
  const calls: { method: string; params: unknown[] }[] = [];
  const fetchFn = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init!.body)) as { id: number; method: string; params: unknown[] };
    calls.push({ method: body.method, params: body.params });
    const answer = answers[body.method];
    const payload =
      typeof answer === 'function'
        ? (answer as (p: unknown[]) => unknown)(body.params)
        : answer === undefined
          ? { error: { code: -32601, message: 'method not available' } }
          : { result: answer };
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: body.id, ...(payload as object) }));
  });
  return { calls, fetchFn };
}

describe('DevWalletProvider.request', () => {
  const key = KEYS[1]!;
  const make = (answers: Record<string, unknown> = {}, authorized = false) => {
    const store = memoryStore({ [DEV_WALLET_STORAGE.key]: key, ...(authorized ? { [DEV_WALLET_STORAGE.authorized]: '1' } : {}) });
    const rpc = fakeRpc(answers);
    const provider = new DevWalletProvider({ rpcUrl: 'http://x/mvapi/public/chain/v1/rpc', networkId: 1029, store, fetch: rpc.fetchFn as unknown as typeof fetch });
    return { provider, store, rpc };
  };

  it('generates and keeps a key on first use', () => {
    const store = memoryStore();
    const p = new DevWalletProvider({ rpcUrl: '/rpc', networkId: 1029, store });
    const first = p.address;
    expect(first).toMatch(/^cfx:/);
    expect(store.get(DEV_WALLET_STORAGE.key)).toMatch(/^0x[0-9a-f]{64}$/);
    expect(new DevWalletProvider({ rpcUrl: '/rpc', networkId: 1029, store }).address).toBe(first);
  });

  it('accounts, chain id, authorisation and revocation (with accountsChanged)', async () => {
    const { provider } = make();
    const events: unknown[] = [];
    provider.on('accountsChanged', (a: unknown) => events.push(a));
    expect(await provider.request({ method: 'cfx_accounts' })).toEqual([]);
    expect(await provider.request({ method: 'cfx_chainId' })).toBe('0x405');
    expect(await provider.request({ method: 'cfx_netVersion' })).toBe('1029');
    const accounts = await provider.request({ method: 'cfx_requestAccounts' });
    expect(accounts).toEqual([sdkAddress(key)]);
    expect(await provider.request({ method: 'cfx_accounts' })).toEqual(accounts);
    await provider.request({ method: 'wallet_revokePermissions', params: [{ cfx_accounts: {} }] });
    expect(await provider.request({ method: 'cfx_accounts' })).toEqual([]);
    expect(events).toEqual([accounts, []]);
  });

  it('personal_sign needs the authorised account; the signature matches js-conflux-sdk', async () => {
    const { provider } = make();
    await expect(provider.request({ method: 'personal_sign', params: [CHALLENGE, sdkAddress(key)] })).rejects.toMatchObject({ code: 4100 });
    await provider.request({ method: 'cfx_requestAccounts' });
    const sig = await provider.request({ method: 'personal_sign', params: [CHALLENGE, sdkAddress(key)] });
    expect(sig).toBe(PersonalMessage.sign(key, CHALLENGE));
    await expect(provider.request({ method: 'personal_sign', params: [CHALLENGE, sdkAddress(KEYS[0]!)] })).rejects.toMatchObject({ code: 4100 });
  });

  it('cfx_signTypedData_v4 (through the signTypedData helper) signs the CIP-23 digest', async () => {
    const { provider } = make({}, true);
    const domain = exchangeDomain(1029, EXCHANGE);
    const order = { seller: sdkAddress(key), nftToken: COLLECTIBLE, tokenId: '9', amount: '100', sellerOrderId: 'L-9' };
    const sig = await signTypedData(provider, sdkAddress(key), listOrderTypedData(order, domain));
    expect(sig).toBe(Message.sign(key, listOrderDigest(order, domain)));
  });

  it('cfx_sendTransaction fills nonce, gas price, epoch, gas and storage from the RPC proxy and sends the signed raw tx', async () => {
    let raw = '';
    const { provider, rpc } = make(
      {
        cfx_getNextNonce: '0x7',
        cfx_gasPrice: '0x3b9aca00',
        cfx_epochNumber: '0x1f4',
        cfx_estimateGasAndCollateral: { gasUsed: '0x9c40', gasLimit: '0xd055', storageCollateralized: '0x40' },
        cfx_sendRawTransaction: (params: unknown[]) => {
          raw = params[0] as string;
          return { result: Transaction.decodeRaw(raw).hash };
        },
        cfx_getTransactionReceipt: { transactionHash: '0x', outcomeStatus: '0x0' },
      },
      true,
    );
    const to = COLLECTIBLE;
    const result = await sendTransactionAndWait(provider, { from: sdkAddress(key), to, data: '0x095ea7b3' }, { tries: 1 });
    expect(result.status).toBe('success');
    const tx = Transaction.decodeRaw(raw) as any;
    expect(tx.from).toBe(sdkAddress(key));
    expect(tx.to).toBe(to);
    expect(BigInt(tx.nonce)).toBe(7n);
    expect(BigInt(tx.gasPrice)).toBe(1_000_000_000n);
    expect(BigInt(tx.gas)).toBe(0xd055n);
    expect(BigInt(tx.storageLimit)).toBe(0x40n);
    expect(BigInt(tx.epochHeight)).toBe(500n);
    expect(tx.chainId).toBe(1029);
    expect(tx.data).toBe('0x095ea7b3');
    expect(result.hash).toBe(Transaction.decodeRaw(raw).hash);
    const estimate = rpc.calls.find((c) => c.method === 'cfx_estimateGasAndCollateral')!;
    expect(estimate.params[0]).toMatchObject({ from: sdkAddress(key), to, data: '0x095ea7b3', nonce: '0x7' });
  });

  it('given fields are kept; RPC errors keep their code; unknown wallet methods are 4200', async () => {
    const { provider, rpc } = make({ cfx_sendRawTransaction: () => ({ error: { code: -32015, message: 'Transaction reverted', data: '0x1234' } }) }, true);
    await expect(
      provider.request({
        method: 'cfx_sendTransaction',
        params: [{ from: sdkAddress(key), to: sdkAddress(key), nonce: '0x1', gasPrice: '0x1', epochHeight: '0x2', gas: '0x5208', storageLimit: '0x0' }],
      }),
    ).rejects.toMatchObject({ code: -32015, data: '0x1234' });
    expect(rpc.calls.map((c) => c.method)).toEqual(['cfx_sendRawTransaction']);
    await expect(provider.request({ method: 'wallet_addConfluxChain', params: [] })).rejects.toMatchObject({ code: 4200 });
    await expect(provider.request({ method: 'cfx_sendTransaction', params: [{ from: sdkAddress(KEYS[0]!), to: sdkAddress(key) }] })).rejects.toMatchObject({ code: 4100 });
  });
});
