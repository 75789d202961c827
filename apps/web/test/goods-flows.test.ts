/** The goods flows (open a box, compose, move / give) with fake API calls, a fake wallet and a fake clock. */
import { describe, expect, it } from 'vitest';
import { Contract } from 'js-conflux-sdk';
import { toBase32Address } from '@cfx/protocol/address.ts';
import type { ApiResult } from '../app/lib/api.ts';
import { zh } from '../app/i18n/zh.ts';
import { runCompose, runOpenBox, runTransfer, transferFromCalldata, type GfDeps, type GfStep, type GfStepUpdate, type OpenBoxContext, type TransferContext } from '../app/lib/goods-flow/flows.ts';
import type { ComposeConsent, ComposeRecord, GoodsTransfer, Opening, TransferIntent } from '../app/lib/goods-flow/types.ts';

const HOLDER_HEX = '0x1aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const HOLDER = toBase32Address(HOLDER_HEX, 1029);
const OTHER_HEX = '0x1bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const NFT_HEX = '0x8ccccccccccccccccccccccccccccccccccccccc';
const HASH = `0x${'ab'.repeat(32)}`;
const SIG = `0x${'11'.repeat(65)}`;

const t = (key: string, vars: Record<string, unknown> = {}) => {
  const text = key.split('.').reduce<any>((o, p) => o?.[p], zh);
  if (typeof text !== 'string') return key;
  return text.replace(/\{\{(\w+)\}\}/g, (_m, k: string) => String(vars[k] ?? ''));
};
const ok = <T>(data: T): ApiResult<T> => ({ ok: true, data, status: '000000', code: '000000', message: '' });
const fail = (status: string, message: string): ApiResult<never> => ({ ok: false, data: null, status, code: status, message });

const typedData = { types: {}, primaryType: 'Consume' as const, domain: { name: 'Collectible', version: '1', chainId: 1029, verifyingContract: NFT_HEX }, message: { owner: HOLDER_HEX, burnIds: ['1'], mintIds: ['2'], flowId: 'box:1' } };
const opening = (status: Opening['status'], extra: Partial<Opening> = {}): Opening => ({
  goodsId: 1, projectId: 9, serial: 1, status, flowId: 'box:1', owner: HOLDER, collectible: '', collectibleHex: NFT_HEX, typedData: status === 'signing' ? typedData : null,
  burnTokenId: '1', mintTokenId: '2', expiresAt: null, txHash: status === 'completed' ? HASH : null, explorerUrl: null, failReason: null, item: null, serverTime: 0, ...extra,
});

function harness(over: Partial<GfDeps> = {}) {
  const steps: [GfStep, GfStepUpdate][] = [];
  let clock = 0;
  const signed: unknown[] = [];
  const deps: GfDeps = {
    t,
    linkedWallet: async () => ({ provider: { request: async () => null }, address: HOLDER }),
    sign: async (_p, _a, td) => (signed.push(td), SIG),
    transfer: async (_p, _tx, onSent) => (onSent(HASH), { status: 'success', hash: HASH }),
    walletErrorText: () => t('wallet.errors.rejected'),
    gateOf: () => undefined,
    sleep: async (ms) => void (clock += ms),
    now: () => clock,
    openBox: async () => fail('9999', 'unset'),
    confirmOpenBox: async () => fail('9999', 'unset'),
    selectFragments: async () => fail('9999', 'unset'),
    confirmCompose: async () => fail('9999', 'unset'),
    submitCompose: async () => fail('9999', 'unset'),
    listComposeRecords: async () => fail('9999', 'unset'),
    startShift: async () => fail('9999', 'unset'),
    startGift: async () => fail('9999', 'unset'),
    notifyTransfer: async () => fail('9999', 'unset'),
    ...over,
  };
  return { deps, steps, signed, onStep: (s: GfStep, u: GfStepUpdate) => steps.push([s, u]), last: (s: GfStep) => [...steps].reverse().find(([k]) => k === s)?.[1] };
}

describe('open a box', () => {
  it('signs the consent, submits once, waits for the chain and returns the item', async () => {
    let polls = 0;
    const confirms: unknown[] = [];
    const h = harness({
      openBox: async () => (polls++ === 0 ? ok(opening('signing')) : ok(polls < 3 ? opening('submitted') : opening('completed'))),
      confirmOpenBox: async (b) => (confirms.push(b), ok(opening('submitted'))),
    });
    const r = await runOpenBox(1, h.deps, h.onStep);
    expect(r.ok).toBe(true);
    expect(r.ok && r.value.status).toBe('completed');
    expect(confirms).toEqual([{ goodsId: 1, signature: SIG }]);
    expect(h.signed).toEqual([typedData]);
    expect(h.steps.map(([s, u]) => `${s}:${u.status}`)).toEqual(['prepare:active', 'prepare:done', 'sign:wallet', 'sign:done', 'submit:active', 'submit:done', 'chain:chain', 'chain:done']);
    expect(h.last('chain')?.hash).toBe(HASH);
  });

  it('a refusal in the wallet fails the sign step; the retry signs again and goes on', async () => {
    let refuse = true;
    const h = harness({
      openBox: async () => ok(opening('signing')),
      sign: async () => {
        if (refuse) throw new Error('rejected');
        return SIG;
      },
      confirmOpenBox: async () => ok(opening('completed')),
    });
    const ctx: OpenBoxContext = {};
    const r1 = await runOpenBox(1, h.deps, h.onStep, ctx);
    expect(r1).toMatchObject({ ok: false, step: 'sign', message: zh.wallet.errors.rejected });
    refuse = false;
    const r2 = await runOpenBox(1, h.deps, h.onStep, ctx);
    expect(r2.ok).toBe(true);
  });

  it('shows the chain’s refusal and starts a new attempt after a failed one', async () => {
    const calls: boolean[] = [];
    const h = harness({
      openBox: async (_id, retry) => (calls.push(Boolean(retry)), calls.length === 1 ? ok(opening('failed', { failReason: 'x' })) : calls.length === 2 ? ok(opening('signing')) : ok(opening('failed', { failReason: '链上执行失败（NotTokenOwner），藏品已释放' }))),
      confirmOpenBox: async () => ok(opening('submitted')),
    });
    const r = await runOpenBox(1, h.deps, h.onStep);
    expect(calls.slice(0, 2)).toEqual([false, true]);
    expect(r).toMatchObject({ ok: false, step: 'chain', message: '链上执行失败（NotTokenOwner），藏品已释放' });
  });

  it('refuses a consent for another wallet, and reports a server refusal at prepare with its code', async () => {
    const other = harness({ openBox: async () => ok(opening('signing', { owner: toBase32Address(OTHER_HEX, 1029) })) });
    expect(await runOpenBox(1, other.deps, other.onStep)).toMatchObject({ ok: false, step: 'prepare', gate: 'otherAccount' });
    const refused = harness({ openBox: async () => fail('1050', '盲盒尚未揭晓') });
    expect(await runOpenBox(1, refused.deps, refused.onStep)).toMatchObject({ ok: false, step: 'prepare', message: '盲盒尚未揭晓', code: '1050' });
  });

  it('tells the user to look later when the chain is slow', async () => {
    const h = harness({ openBox: async () => ok(opening('submitted')) });
    expect(await runOpenBox(1, h.deps, h.onStep)).toMatchObject({ ok: false, step: 'chain', message: zh.goodsFlow.chainSlow });
  });
});

describe('compose', () => {
  const record = (status: ComposeRecord['status']): ComposeRecord => ({
    composeNo: 'CP1', ruleId: 3, ruleName: 'r', status, goods: [], result: { serial: 1, tokenId: '9', goodsId: status === 'completed' ? 77 : null, name: 'res', image: '' },
    txHash: status === 'completed' ? HASH : null, explorerUrl: null, failReason: status === 'failed' ? '链上执行失败（NotTokenOwner），藏品已释放' : null, expiresAt: 10_000_000, createdAt: 0, updatedAt: 0,
  });
  const consent: ComposeConsent = { record: record('confirmed'), owner: HOLDER, collectible: '', collectibleHex: NFT_HEX, typedData: { ...typedData, message: { ...typedData.message, flowId: 'compose:CP1' } } };

  it('reserves, signs, submits and waits for the result', async () => {
    const seen: string[] = [];
    let polls = 0;
    const h = harness({
      selectFragments: async (b) => (seen.push(`select ${b.goodsIds.join(',')}`), ok(record('selected'))),
      confirmCompose: async (b) => (seen.push(`confirm ${b.composeNo}`), ok(consent)),
      submitCompose: async (b) => (seen.push(`submit ${b.signature === SIG}`), ok(record('submitted'))),
      listComposeRecords: async () => ok({ list: [record(++polls < 2 ? 'submitted' : 'completed')], total: 1, pageNum: 1, pageSize: 1 }),
    });
    const r = await runCompose({ ruleId: 3, goodsIds: [5, 6, 7] }, h.deps, h.onStep);
    expect(r).toMatchObject({ ok: true, value: { status: 'completed', result: { goodsId: 77 } } });
    expect(seen).toEqual(['select 5,6,7', 'confirm CP1', 'submit true']);
  });

  it('a chain refusal ends at the chain step with the reason', async () => {
    const h = harness({
      selectFragments: async () => ok(record('selected')),
      confirmCompose: async () => ok(consent),
      submitCompose: async () => ok(record('submitted')),
      listComposeRecords: async () => ok({ list: [record('failed')], total: 1, pageNum: 1, pageSize: 1 }),
    });
    expect(await runCompose({ ruleId: 3, goodsIds: [5] }, h.deps, h.onStep)).toMatchObject({ ok: false, step: 'chain', message: '链上执行失败（NotTokenOwner），藏品已释放' });
  });
});

describe('move / give', () => {
  const intent: TransferIntent = {
    transferNo: 'GF1', kind: 'gift', status: 'pending', direction: 'out', goods: { goodsId: 4, name: 'g', image: '', serial: 1, projectName: 'p', tokenId: '1000' },
    from: { accountId: '1', nickname: 'a' }, to: { accountId: '2', nickname: 'b' }, fromAddress: HOLDER, toAddress: toBase32Address(OTHER_HEX, 1029), txHash: null, explorerUrl: null,
    createdAt: 0, expiresAt: 300_000, doneAt: null, collectible: '', collectibleHex: NFT_HEX, fromHex: HOLDER_HEX, toHex: OTHER_HEX,
  };
  const done: GoodsTransfer = { ...intent, status: 'done', txHash: HASH };

  it('prepares, sends transferFrom from the wallet, and the server records it', async () => {
    const sent: unknown[] = [];
    let notifies = 0;
    const h = harness({
      startGift: async (b) => (expect(b).toEqual({ goodsId: 4, mobile: undefined, accountId: '2' }), ok(intent)),
      transfer: async (_p, tx, onSent) => (sent.push(tx), onSent(HASH), { status: 'success', hash: HASH }),
      notifyTransfer: async () => ok(++notifies < 2 ? intent : done),
    });
    const r = await runTransfer({ kind: 'gift', goodsId: 4, accountId: '2' }, h.deps, h.onStep);
    expect(r).toMatchObject({ ok: true, value: { status: 'done' } });
    expect(sent).toEqual([{ from: HOLDER, collectible: '', fromHex: HOLDER_HEX, toHex: OTHER_HEX, tokenId: '1000' }]);
    expect(h.steps.filter(([s]) => s === 'transfer').map(([, u]) => u.status)).toEqual(['wallet', 'chain', 'done']);
    expect(h.last('sync')).toEqual({ status: 'done', message: undefined });
  });

  it('a failed transaction is named; the retry resumes with the same intent', async () => {
    let starts = 0;
    let fails = true;
    const h = harness({
      startShift: async () => (starts++, ok({ ...intent, kind: 'shift' })),
      transfer: async (_p, _tx, onSent) => (onSent(HASH), fails ? { status: 'failed', hash: HASH, reason: 'Vm reverted' } : { status: 'success', hash: HASH }),
      notifyTransfer: async () => ok(done),
    });
    const ctx: TransferContext = {};
    const r1 = await runTransfer({ kind: 'shift', goodsId: 4, toAddress: intent.toAddress }, h.deps, h.onStep, ctx);
    expect(r1).toMatchObject({ ok: false, step: 'transfer' });
    fails = false;
    const r2 = await runTransfer({ kind: 'shift', goodsId: 4, toAddress: intent.toAddress }, h.deps, h.onStep, ctx);
    expect(r2.ok).toBe(true);
    expect(starts).toBe(1);
  });

  it('encodes transferFrom like the ABI encoder', () => {
    const abi = [{ type: 'function', name: 'transferFrom', stateMutability: 'nonpayable', inputs: [{ name: 'from', type: 'address' }, { name: 'to', type: 'address' }, { name: 'tokenId', type: 'uint256' }], outputs: [] }];
    const c: any = new (Contract as any)({ abi });
    expect(transferFromCalldata(HOLDER_HEX, OTHER_HEX, '1000001')).toBe(c.transferFrom(HOLDER_HEX, OTHER_HEX, 1000001n).data);
    expect(() => transferFromCalldata('cfx:x', OTHER_HEX, '1')).toThrow();
  });
});
