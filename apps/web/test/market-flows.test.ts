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
  cancelOrderCalldata,
  runOffShelf,
  runSell,
  type FlowDeps,
  type OffShelfContext,
  type SellContext,
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

const EXCHANGE = toBase32Address(EXCHANGE_HEX, 1029);

function draft(approved: boolean, pendingCancels: string[] = [], expiresAt = Date.now() + 1_800_000): PreOpenSale {
  const typed = listOrderTypedData({ seller: SELLER_HEX, nftToken: NFT_HEX, tokenId: 42n, amount: 12_345n, sellerOrderId: 'SO1' }, exchangeDomain(1029, EXCHANGE_HEX));
  return {
    goodsId: 7,
    priceFen: 12_345,
    sellerOrderId: 'SO1',
    typedData: typed as unknown as PreOpenSale['typedData'],
    seller: SELLER,
    exchange: EXCHANGE,
    exchangeHex: EXCHANGE_HEX,
    collectible: toBase32Address(NFT_HEX, 1029),
    collectibleHex: NFT_HEX,
    tokenId: '42',
    approved,
    pendingCancels,
    expiresAt,
    cost: { priceFen: 12_345, total: 617, costs: [], incomeFen: 11_728, royaltyPermille: 0, royaltyFen: 0 },
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
    cancelOrder: vi.fn(async (_p, tx, onSent): Promise<TxOutcome> => {
      calls.push(`cancel ${tx.exchange === EXCHANGE} ${tx.sellerOrderId}`);
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
      return ok({
        goodsId: 7,
        status: 'held' as const,
        cancel: { exchange: EXCHANGE, exchangeHex: EXCHANGE_HEX, sellerOrderId: 'SO1' },
        approveZero: { collectible: toBase32Address(NFT_HEX, 1029), collectibleHex: NFT_HEX, to: '0x0000000000000000000000000000000000000000', tokenId: '42' },
      });
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

describe('cancelOrder calldata', () => {
  it('matches js-conflux-sdk encoding of Exchange.cancelOrder(string)', () => {
    const abi = [{ type: 'function', name: 'cancelOrder', stateMutability: 'nonpayable', inputs: [{ name: 'sellerOrderId', type: 'string' }], outputs: [] }];
    const c: any = new (Contract as any)({ abi });
    for (const id of ['SO1', 'SOmb3k2x1a9XyZ0abcdEFGHijk', 'x'.repeat(32), 'y'.repeat(33), 'z'.repeat(64)]) expect(cancelOrderCalldata(id)).toBe(c.cancelOrder(id).data);
  });
  it('refuses an id the server would never issue', () => {
    expect(() => cancelOrderCalldata('')).toThrow(TypeError);
    expect(() => cancelOrderCalldata('藏品')).toThrow(TypeError);
    expect(() => cancelOrderCalldata('a'.repeat(65))).toThrow(TypeError);
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
    // nothing earlier to cancel: the cancel step is skipped
    expect(r.states('cancel')).toEqual(['skipped']);
    expect(r.states('approve')).toEqual(['wallet', 'chain', 'done']);
    expect(r.states('sign')).toEqual(['wallet', 'done']);
    expect(r.log.find(([s, u]) => s === 'approve' && u.status === 'chain')?.[1].hash).toBe(HASH);
  });

  it('earlier orders still open on chain: each is cancelled from the wallet before the approval and the signature', async () => {
    const { d, calls } = deps({ preOpenSale: vi.fn(async () => ok(draft(false, ['SO0a', 'SO0b']))) });
    const r = recorder();
    expect((await runSell({ goodsId: 7, priceFen: 12_345 }, d, r.onStep)).ok).toBe(true);
    expect(calls.slice(0, 5)).toEqual(['cancel true SO0a', 'cancel true SO0b', `approve ${EXCHANGE_HEX} 42`, 'sign', 'openSale SO1 true']);
    // each transaction's phases are visible, with which one of the two it is; done after the last
    const cancelSteps = r.log.filter(([s]) => s === 'cancel').map(([, u]) => `${u.status}${u.progress ? ` ${u.progress}` : ''}`);
    expect(cancelSteps).toEqual(['active', 'wallet 1/2', 'chain 1/2', 'wallet 2/2', 'chain 2/2', 'done 2/2']);
    expect(r.log.findIndex(([s]) => s === 'cancel')).toBeLessThan(r.log.findIndex(([s]) => s === 'sign'));
  });

  it('a refusal at a cancel: failed at cancel, nothing signed; the retry resumes at cancel with the same draft and skips what is cancelled', async () => {
    let refuseAt = 'SO0b';
    const cancelled: string[] = [];
    const { d, calls } = deps({
      preOpenSale: vi.fn(async () => {
        calls.push('preOpenSale');
        return ok(draft(false, ['SO0a', 'SO0b']));
      }),
      cancelOrder: vi.fn(async (_p, tx, onSent): Promise<TxOutcome> => {
        if (tx.sellerOrderId === refuseAt) throw rejection();
        cancelled.push(tx.sellerOrderId);
        onSent(HASH);
        return { status: 'success', hash: HASH };
      }),
    });
    const ctx: SellContext = {};
    const first = recorder();
    expect(await runSell({ goodsId: 7, priceFen: 12_345 }, d, first.onStep, ctx)).toMatchObject({ ok: false, step: 'cancel', message: '您已在钱包中取消了本次操作' });
    expect(first.log.at(-1)).toEqual(['cancel', { status: 'failed', message: '您已在钱包中取消了本次操作' }]);
    expect(calls).toEqual(['preOpenSale']);
    expect(cancelled).toEqual(['SO0a']);
    refuseAt = '';
    const retry = recorder();
    expect((await runSell({ goodsId: 7, priceFen: 12_345 }, d, retry.onStep, ctx)).ok).toBe(true);
    expect(calls.filter((c) => c === 'preOpenSale')).toHaveLength(1);
    expect(cancelled).toEqual(['SO0a', 'SO0b']);
    expect(retry.states('prepare')).toEqual(['active', 'done']);
    expect(retry.states('cancel')).toEqual(['active', 'wallet', 'chain', 'done']);
    expect(calls.slice(1, 4)).toEqual([`approve ${EXCHANGE_HEX} 42`, 'sign', 'openSale SO1 true']);
  });

  it('a refusal at the signature: the retry asks only for the signature again (the approval is confirmed)', async () => {
    let refuse = true;
    const { d, calls } = deps({
      sign: vi.fn(async () => {
        if (refuse) throw rejection();
        calls.push('sign');
        return SIG;
      }),
    });
    const ctx: SellContext = {};
    expect(await runSell({ goodsId: 7, priceFen: 12_345 }, d, recorder().onStep, ctx)).toMatchObject({ ok: false, step: 'sign' });
    refuse = false;
    const retry = recorder();
    expect((await runSell({ goodsId: 7, priceFen: 12_345 }, d, retry.onStep, ctx)).ok).toBe(true);
    expect(calls.filter((c) => c.startsWith('approve') || c.startsWith('preOpenSale'))).toHaveLength(2);
    expect(retry.states('approve')).toEqual(['done']);
  });

  it('a refused submit starts over: the retry prepares a new draft (the server then lists the signed one to cancel)', async () => {
    let first = true;
    const { d, calls } = deps({
      openSale: vi.fn(async () => {
        calls.push('openSale');
        if (first) return (first = false), fail('1014', '请先在钱包中授权交易合约');
        return ok({ listingId: 1, goodsId: 7, priceFen: 12_345, sellerOrderId: 'SO1', status: 'on_sale' as const, listedAt: 1, closedAt: null, closeReason: null });
      }),
    });
    const ctx: SellContext = {};
    expect(await runSell({ goodsId: 7, priceFen: 12_345 }, d, recorder().onStep, ctx)).toMatchObject({ ok: false, step: 'submit', code: '1014' });
    expect(ctx).toEqual({});
    expect((await runSell({ goodsId: 7, priceFen: 12_345 }, d, recorder().onStep, ctx)).ok).toBe(true);
    expect(calls.filter((c) => c.startsWith('preOpenSale'))).toHaveLength(2);
  });

  it('a kept draft about to expire is not reused: the retry prepares again', async () => {
    const now = Date.now();
    const { d, calls } = deps({
      now: () => now,
      preOpenSale: vi.fn(async () => {
        calls.push('preOpenSale');
        return ok(draft(false, [], now + 30_000));
      }),
      approve: vi.fn(async () => Promise.reject(rejection())),
    });
    const ctx: SellContext = {};
    expect(await runSell({ goodsId: 7, priceFen: 12_345 }, d, recorder().onStep, ctx)).toMatchObject({ ok: false, step: 'approve' });
    expect(await runSell({ goodsId: 7, priceFen: 12_345 }, d, recorder().onStep, ctx)).toMatchObject({ ok: false, step: 'approve' });
    expect(calls.filter((c) => c === 'preOpenSale')).toHaveLength(2);
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
  it('closeSale → cancel the signed order on chain → approve the zero address → notify', async () => {
    const { d, calls } = deps();
    const r = recorder();
    expect((await runOffShelf(7, d, r.onStep)).ok).toBe(true);
    expect(calls).toEqual(['closeSale', 'cancel true SO1', 'approve 0x0000000000000000000000000000000000000000 42', `notify close ${HASH}`]);
    expect(r.states('cancel')).toEqual(['active', 'wallet', 'chain', 'done']);
    expect(r.log.find(([s, u]) => s === 'cancel' && u.status === 'chain')?.[1].hash).toBe(HASH);
    expect(r.states('revoke')).toEqual(['active', 'wallet', 'chain', 'done']);
  });

  it('a refusal at the cancel: failed at cancel, nothing revoked; the retry resumes at cancel (the sale is already closed)', async () => {
    let refuse = true;
    const { d, calls } = deps({
      cancelOrder: vi.fn(async (_p, tx, onSent): Promise<TxOutcome> => {
        if (refuse) throw rejection();
        calls.push(`cancel ${tx.sellerOrderId}`);
        onSent(HASH);
        return { status: 'success', hash: HASH };
      }),
    });
    const ctx: OffShelfContext = {};
    const first = recorder();
    expect(await runOffShelf(7, d, first.onStep, ctx)).toMatchObject({ ok: false, step: 'cancel', message: '您已在钱包中取消了本次操作' });
    expect(first.log.at(-1)).toEqual(['cancel', { status: 'failed', message: '您已在钱包中取消了本次操作' }]);
    expect(calls).toEqual(['closeSale']);
    refuse = false;
    const retry = recorder();
    expect((await runOffShelf(7, d, retry.onStep, ctx)).ok).toBe(true);
    expect(calls).toEqual(['closeSale', 'cancel SO1', 'approve 0x0000000000000000000000000000000000000000 42', `notify close ${HASH}`]);
    expect(retry.states('close')).toEqual(['done']);
    expect(retry.states('cancel')).toEqual(['active', 'wallet', 'chain', 'done']);
  });

  it('a refusal at the revoke: a retry starts at the revoke step (closed and cancelled already)', async () => {
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
    const retry = recorder();
    expect((await runOffShelf(7, d, retry.onStep, ctx)).ok).toBe(true);
    expect(calls.filter((c) => c === 'closeSale')).toHaveLength(1);
    expect(calls.filter((c) => c.startsWith('cancel'))).toHaveLength(1);
    expect(retry.states('cancel')).toEqual(['done']);
    expect(retry.states('revoke')).toEqual(['active', 'wallet', 'chain', 'done']);
  });

  it('a reverted cancel fails the step with the chain reason', async () => {
    const { d, calls } = deps({ cancelOrder: vi.fn(async (): Promise<TxOutcome> => ({ status: 'failed', hash: HASH, reason: 'Vm reverted' })) });
    expect(await runOffShelf(7, d, recorder().onStep)).toMatchObject({ ok: false, step: 'cancel', message: '链上交易执行失败：Vm reverted' });
    expect(calls.some((c) => c.startsWith('approve'))).toBe(false);
  });

  it('no chain on the server: cancel and revoke are skipped', async () => {
    const { d, calls } = deps({ closeSale: vi.fn(async () => ok({ goodsId: 7, status: 'held' as const, cancel: null, approveZero: null })) });
    const r = recorder();
    expect((await runOffShelf(7, d, r.onStep)).ok).toBe(true);
    expect(r.states('cancel')).toEqual(['skipped']);
    expect(r.states('revoke')).toEqual(['skipped']);
    expect(calls).toEqual(['notify close ']);
  });

  it('closeSale refused (a buyer is paying): the server message on the close step', async () => {
    const { d } = deps({ closeSale: vi.fn(async () => fail('1013', '该藏品有进行中的订单，暂不能下架')) });
    expect(await runOffShelf(7, d, recorder().onStep)).toMatchObject({ ok: false, step: 'close', code: '1013', message: '该藏品有进行中的订单，暂不能下架' });
  });
});
