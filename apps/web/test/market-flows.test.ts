/** The market's wallet flows (list now, agree to a bid, off shelf) with fake API calls and a fake wallet. */
import { describe, expect, it, vi } from 'vitest';
import { Contract } from 'js-conflux-sdk';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { exchangeDomain, listOrderTypedData } from '@cfx/protocol/cip23.ts';
import type { ApiResult } from '../app/lib/api.ts';
import { zh } from '../app/i18n/zh.ts';
import {
  WalletGateError,
  approveCalldata,
  runOffShelf,
  runSell,
  type FlowDeps,
  type OffShelfContext,
  type StepUpdate,
  type TxOutcome,
} from '../app/features/market/flows.ts';
import type { PreOpenSale } from '../app/features/market/api/types.ts';

const SELLER_HEX = '0x1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const SELLER = toBase32Address(SELLER_HEX, 1029);
const EXCHANGE_HEX = '0x8bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const NFT_HEX = '0x8ccccccccccccccccccccccccccccccccccccccc';
const HASH = `0x${'ab'.repeat(32)}`;
const SIG = `0x${'11'.repeat(65)}`;

/** A translate function over the zh catalog (keys → text with {{vars}} filled). */
const t = (key: string, vars: Record<string, unknown> = {}) => {
  const text = key.split('.').reduce<any>((o, p) => o?.[p], zh);
  if (typeof text !== 'string') return key;
  return text.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => String(vars[k] ?? ''));
};

const ok = <T>(data: T, message = ''): ApiResult<T> => ({ ok: true, data, status: '000000', code: '000000', message });
const fail = (status: string, message: string): ApiResult<never> => ({ ok: false, data: null, status, code: status, message });

function draft(approved: boolean): PreOpenSale {
  const typed = listOrderTypedData({ seller: SELLER_HEX, nftToken: NFT_HEX, tokenId: 42n, amount: 12_345n, sellerOrderId: 'SO1' }, exchangeDomain(1029, EXCHANGE_HEX));
  return {
    goodsId: 7,
    priceFen: 12_345,
    sellerOrderId: 'SO1',
    typedData: typed as unknown as PreOpenSale['typedData'],
    seller: SELLER,
    exchange: toBase32Address(EXCHANGE_HEX, 1029),
    exchangeHex: EXCHANGE_HEX,
    collectible: toBase32Address(NFT_HEX, 1029),
    collectibleHex: NFT_HEX,
    tokenId: '42',
    approved,
    expiresAt: Date.now() + 1_800_000,
    cost: { priceFen: 12_345, total: 617, costs: [], incomeFen: 11_728 },
  };
}

const rejection = () => Object.assign(new Error('User rejected the request.'), { code: 4001 });

function deps(over: Partial<FlowDeps> = {}) {
  const calls: string[] = [];
  const d: FlowDeps = {
    t,
    linkedWallet: vi.fn(async () => ({ provider: { request: async () => null }, address: SELLER })),
    approve: vi.fn(async (_p, tx, onSent): Promise<TxOutcome> => {
      calls.push(`approve ${tx.to} ${tx.tokenId}`);
      onSent(HASH);
      return { status: 'success', hash: HASH };
    }),
    sign: vi.fn(async () => {
      calls.push('sign');
      return SIG;
    }),
    walletErrorText: (err) => ((err as { code?: number }).code === 4001 ? t('wallet.errors.rejected') : t('wallet.errors.failed')),
    preOpenSale: vi.fn(async (b) => {
      calls.push(`preOpenSale ${JSON.stringify(b)}`);
      return ok(draft(false));
    }),
    openSale: vi.fn(async (b) => {
      calls.push(`openSale ${b.sellerOrderId} ${b.signature === SIG}`);
      return ok({ listingId: 1, goodsId: 7, priceFen: 12_345, sellerOrderId: 'SO1', status: 'on_sale' as const, listedAt: 1, closedAt: null, closeReason: null });
    }),
    agreeBid: vi.fn(async (b) => {
      calls.push(`agreeBid ${b.bidId} ${b.sellerOrderId}`);
      return ok({ orderNo: 'BO1' } as never);
    }),
    closeSale: vi.fn(async () => {
      calls.push('closeSale');
      return ok({ goodsId: 7, status: 'held' as const, approveZero: { collectible: toBase32Address(NFT_HEX, 1029), collectibleHex: NFT_HEX, to: '0x0000000000000000000000000000000000000000', tokenId: '42' } });
    }),
    notify: vi.fn(async (b) => {
      calls.push(`notify ${b.action} ${b.txHash ?? ''}`);
      return ok(null as never);
    }),
    ...over,
  };
  return { d, calls };
}

function recorder() {
  const log: Array<[string, StepUpdate]> = [];
  return { log, onStep: (s: string, u: StepUpdate) => log.push([s, u]), states: (step: string) => log.filter(([s]) => s === step).map(([, u]) => u.status) };
}

describe('approve calldata', () => {
  it('matches js-conflux-sdk encoding of approve(address,uint256)', () => {
    const abi = [{ type: 'function', name: 'approve', stateMutability: 'nonpayable', inputs: [{ name: 'to', type: 'address' }, { name: 'tokenId', type: 'uint256' }], outputs: [] }];
    const c: any = new (Contract as any)({ abi });
    for (const [to, id] of [[EXCHANGE_HEX, '42'], ['0x0000000000000000000000000000000000000000', '115792089237316195423570985008687907853269984665640564039457584007913129639935']] as const) {
      expect(approveCalldata(to, id)).toBe(c.approve(to, BigInt(id)).data);
    }
  });
  it('refuses a base32 address or a bad token id', () => {
    expect(() => approveCalldata(SELLER, '1')).toThrow(TypeError);
    expect(() => approveCalldata(EXCHANGE_HEX, '-1')).toThrow(TypeError);
  });
});

describe('list now', () => {
  it('prepare → approve (wallet, then chain) → sign → openSale → notify', async () => {
    const { d, calls } = deps();
    const r = recorder();
    const res = await runSell({ goodsId: 7, priceFen: 12_345 }, d, r.onStep);
    expect(res.ok).toBe(true);
    expect(calls).toEqual([
      'preOpenSale {"goodsId":7,"price":12345}',
      `approve ${EXCHANGE_HEX} 42`,
      'sign',
      'openSale SO1 true',
      `notify open ${HASH}`,
    ]);
    expect(r.states('approve')).toEqual(['wallet', 'chain', 'done']);
    expect(r.states('sign')).toEqual(['wallet', 'done']);
    expect(r.log.find(([s, u]) => s === 'approve' && u.status === 'chain')?.[1].hash).toBe(HASH);
  });

  it('skips the approval when the exchange is already approved', async () => {
    const { d, calls } = deps({ preOpenSale: vi.fn(async () => ok(draft(true))) });
    const r = recorder();
    expect((await runSell({ goodsId: 7, priceFen: 12_345 }, d, r.onStep)).ok).toBe(true);
    expect(r.states('approve')).toEqual(['skipped']);
    expect(calls.some((c) => c.startsWith('approve'))).toBe(false);
  });

  it('a refusal in the wallet at the approval: failed step with the clear message, nothing submitted', async () => {
    const { d, calls } = deps({ approve: vi.fn(async () => Promise.reject(rejection())) });
    const r = recorder();
    const res = await runSell({ goodsId: 7, priceFen: 12_345 }, d, r.onStep);
    expect(res).toMatchObject({ ok: false, step: 'approve', message: '您已在钱包中取消了本次操作' });
    expect(r.log.at(-1)).toEqual(['approve', { status: 'failed', message: '您已在钱包中取消了本次操作' }]);
    expect(calls.some((c) => c.startsWith('openSale'))).toBe(false);
  });

  it('a refusal at the signature', async () => {
    const { d, calls } = deps({ sign: vi.fn(async () => Promise.reject(rejection())) });
    const res = await runSell({ goodsId: 7, priceFen: 12_345 }, d, recorder().onStep);
    expect(res).toMatchObject({ ok: false, step: 'sign', message: '您已在钱包中取消了本次操作' });
    expect(calls.some((c) => c.startsWith('openSale'))).toBe(false);
  });

  it('a reverted approval and an unconfirmed one', async () => {
    const failed = deps({ approve: vi.fn(async (): Promise<TxOutcome> => ({ status: 'failed', hash: HASH, reason: 'Vm reverted' })) });
    expect(await runSell({ goodsId: 7, priceFen: 1 }, failed.d, recorder().onStep)).toMatchObject({ ok: false, step: 'approve', message: '链上交易执行失败：Vm reverted' });
    const timeout = deps({ approve: vi.fn(async (): Promise<TxOutcome> => ({ status: 'timeout', hash: HASH })) });
    expect(await runSell({ goodsId: 7, priceFen: 1 }, timeout.d, recorder().onStep)).toMatchObject({ ok: false, step: 'approve', message: zh.wallet.errors.txTimeout });
  });

  it('the trading gate refusal of preOpenSale keeps its status code (1011) and message', async () => {
    const { d } = deps({ preOpenSale: vi.fn(async () => fail('1011', '请先完成实名认证')) });
    expect(await runSell({ goodsId: 7, priceFen: 1 }, d, recorder().onStep)).toMatchObject({ ok: false, step: 'prepare', code: '1011', message: '请先完成实名认证' });
  });

  it('no connected wallet: the gate, before anything is drafted', async () => {
    const { d, calls } = deps({ linkedWallet: vi.fn(async () => Promise.reject(new WalletGateError('notConnected'))) });
    expect(await runSell({ goodsId: 7, priceFen: 1 }, d, recorder().onStep)).toMatchObject({ ok: false, step: 'prepare', gate: 'notConnected', message: zh.market.gate.notConnected });
    expect(calls).toEqual([]);
  });

  it('a wallet on another account than the linked one is refused', async () => {
    const other = toBase32Address('0x1ddddddddddddddddddddddddddddddddddddddd', 1029);
    const { d } = deps({ linkedWallet: vi.fn(async () => ({ provider: { request: async () => null }, address: other })) });
    expect(await runSell({ goodsId: 7, priceFen: 1 }, d, recorder().onStep)).toMatchObject({ ok: false, step: 'prepare', gate: 'otherAccount' });
  });

  it('agree to a bid: preOpenSale with the bid, agreeBargin instead of openSale', async () => {
    const { d, calls } = deps();
    const res = await runSell({ goodsId: 7, priceFen: 9_900, bid: { id: 3 } }, d, recorder().onStep);
    expect(res).toMatchObject({ ok: true, value: { kind: 'agreed', order: { orderNo: 'BO1' } } });
    expect(calls[0]).toBe('preOpenSale {"goodsId":7,"price":9900,"bidId":3}');
    expect(calls.at(-1)).toBe('agreeBid 3 SO1');
  });
});

describe('off shelf', () => {
  it('closeSale → approve the zero address → notify', async () => {
    const { d, calls } = deps();
    const r = recorder();
    expect((await runOffShelf(7, d, r.onStep)).ok).toBe(true);
    expect(calls).toEqual(['closeSale', 'approve 0x0000000000000000000000000000000000000000 42', `notify close ${HASH}`]);
    expect(r.states('revoke')).toEqual(['active', 'wallet', 'chain', 'done']);
  });

  it('a refusal in the wallet: a retry starts at the revoke step (the sale is already closed)', async () => {
    let refuse = true;
    const { d, calls } = deps({
      approve: vi.fn(async (_p, _tx, onSent): Promise<TxOutcome> => {
        if (refuse) throw rejection();
        onSent(HASH);
        return { status: 'success', hash: HASH };
      }),
    });
    const ctx: OffShelfContext = {};
    expect(await runOffShelf(7, d, recorder().onStep, ctx)).toMatchObject({ ok: false, step: 'revoke', message: '您已在钱包中取消了本次操作' });
    refuse = false;
    expect((await runOffShelf(7, d, recorder().onStep, ctx)).ok).toBe(true);
    expect(calls.filter((c) => c === 'closeSale')).toHaveLength(1);
  });

  it('closeSale refused (a buyer is paying): the server message on the close step', async () => {
    const { d } = deps({ closeSale: vi.fn(async () => fail('1013', '该藏品有进行中的订单，暂不能下架')) });
    expect(await runOffShelf(7, d, recorder().onStep)).toMatchObject({ ok: false, step: 'close', code: '1013', message: '该藏品有进行中的订单，暂不能下架' });
  });
});
