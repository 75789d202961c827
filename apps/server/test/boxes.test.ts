import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { boxAssignmentHash, boxCommitment, drawBoxAssignment, verifyBoxProof } from '@cfx/protocol/box-draw.ts';
import { signConsume } from '@cfx/contracts/src/consume-signature.ts';
import { revealDueBoxes } from '../src/modules/boxes/box-release.ts';
import { createBoxRelease } from '../src/modules/boxes/create-box-release.ts';
import { call, expectOk, get, makeBoxRelease, makeFlowsApp, reveal, runJobs, signConsent, type FlowsApp } from './consume-helpers.ts';
import { listForSale, makeTrader, type Trader } from './market-helpers.ts';

/**
 * Blind boxes on SQLite and PostgreSQL (TEST_PG_URL), with the fake chain: the reveal (odds exact,
 * proof recomputable), opening exactly once, and the rules between opening and selling.
 */
describe('blind boxes', () => {
  let t: FlowsApp;
  let alice: Trader;
  beforeEach(async () => {
    t = await makeFlowsApp();
    alice = await makeTrader(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const boxesOf = async (projectId: number) =>
    (await t.ctx.db.kysely.selectFrom('goods').select(['id', 'serial', 'token_id', 'status']).where('project_id', '=', projectId).orderBy('serial').execute()).map((g) => ({ ...g, id: Number(g.id), serial: Number(g.serial) }));

  it('reveals after the sale and the reveal epoch: the odds are exact and anyone can recompute the proof', async () => {
    const seed = 'a'.repeat(64);
    const r = await makeBoxRelease(t, alice, { kinds: [{ name: '隐藏', rarity: '隐藏', count: 1 }, { name: '稀有', rarity: '稀有', count: 9 }, { name: '普通', rarity: '普通', count: 90 }], serverSeed: seed });
    // Published before the reveal: odds, commitment and epoch, but no seed.
    const before = await get(t, `/goods/v1/box/info/?projectId=${r.projectId}`);
    expectOk(before);
    expect(before.data).toMatchObject({ status: 'committed', reveal: null, commitment: boxCommitment(seed), revealEpoch: r.revealEpoch, supply: 100, saleOver: true, algorithm: 'box-shuffle-v1' });
    expect(before.data.kinds.map((k: any) => k.count)).toEqual([1, 9, 90]);
    expect(JSON.stringify(before.data)).not.toContain(seed);
    // The chain has not reached the reveal epoch: nothing is revealed, boxes cannot be opened.
    expect(await revealDueBoxes(t.ctx)).toBe(0);
    const box = (await boxesOf(r.projectId))[0]!;
    const early = await get(t, `/goods/v1/openBox/?goodsId=${box.id}`, alice.h);
    expect(early).toMatchObject({ status: '1050', message: 'the box is not revealed yet: it can be opened once the sale is over and the reveal epoch is reached' });

    await reveal(t, r.revealEpoch);
    const after = await get(t, `/goods/v1/box/info/?projectId=${r.projectId}`);
    expect(after.data.status).toBe('revealed');
    const proof = after.data.reveal;
    expect(proof.serverSeed).toBe(seed);
    expect(proof.blockHash).toBe(await t.consume.blockHash(r.revealEpoch));
    // Recompute from the public data alone: the seed opens the commitment and the draw gives the stored hash.
    const check = verifyBoxProof({ counts: after.data.kinds.map((k: any) => k.count), commitment: after.data.commitment, serverSeed: proof.serverSeed, blockHash: proof.blockHash, assignmentHash: proof.assignmentHash });
    expect(check.commitmentOk).toBe(true);
    expect(check.assignmentOk).toBe(true);
    // The stored assignment is that recomputation, and the odds are exact.
    const stored = (await t.ctx.db.kysely.selectFrom('box_releases').select('assignment').where('project_id', '=', r.projectId).executeTakeFirstOrThrow()).assignment!.split(',').map(Number);
    expect(stored).toEqual(check.assignment);
    expect(stored).toEqual(drawBoxAssignment([1, 9, 90], seed, proof.blockHash));
    expect(boxAssignmentHash(stored)).toBe(proof.assignmentHash);
    expect([0, 1, 2].map((k) => stored.filter((x) => x === k).length)).toEqual([1, 9, 90]);
    // Exactly once: a second sweep changes nothing.
    expect(await revealDueBoxes(t.ctx)).toBe(0);
  });

  it('does not reveal while boxes can still be sold', async () => {
    const r = await makeBoxRelease(t, alice, { grant: 2 });
    t.consume.epoch = r.revealEpoch + 10;
    expect(await revealDueBoxes(t.ctx)).toBe(0);
    const info = await get(t, `/goods/v1/box/info/?projectId=${r.projectId}`);
    expect(info.data).toMatchObject({ status: 'committed', saleOver: false, reveal: null });
    // A release that is not a box answers null.
    const items = await get(t, `/goods/v1/box/info/?projectId=${r.itemProjectId}`);
    expect(items).toMatchObject({ status: '000000', data: null });
  });

  it('opens a box exactly once: the box burned, the drawn item minted to the holder, under replays', async () => {
    const r = await makeBoxRelease(t, alice);
    await reveal(t, r.revealEpoch);
    const box = (await boxesOf(r.projectId))[2]!;
    const open = await get(t, `/goods/v1/openBox/?goodsId=${box.id}`, alice.h);
    expectOk(open);
    const o = open.data;
    expect(o).toMatchObject({ status: 'signing', flowId: `box:${box.id}`, burnTokenId: String(box.token_id), owner: alice.address });
    expect(o.typedData.primaryType).toBe('Consume');
    expect(o.typedData.domain).toMatchObject({ name: 'Collectible', version: '1', chainId: 1029, verifyingContract: t.chain.collectibleHex });
    expect(o.typedData.message).toEqual({ owner: alice.hex, burnIds: [String(box.token_id)], mintIds: [o.mintTokenId], flowId: `box:${box.id}` });
    // Asking again while signing answers the same consent.
    expect((await get(t, `/goods/v1/openBox/?goodsId=${box.id}`, alice.h)).data.mintTokenId).toBe(o.mintTokenId);
    const signature = signConsent(alice, o.typedData);
    // Replays of the signed consent, also at once: one job, one transaction.
    const confirms = await Promise.all([1, 2, 3, 4].map(() => call(t, '/goods/v1/openBox/confirm', { goodsId: box.id, signature }, alice.h)));
    for (const c of confirms) expect(c.status, c.message).toBe('000000');
    expect(confirms.map((c) => c.data.status)).toEqual(['submitted', 'submitted', 'submitted', 'submitted']);
    await runJobs(t);
    await runJobs(t);
    const done = await get(t, `/goods/v1/openBox/?goodsId=${box.id}`, alice.h);
    expect(done.data.status).toBe('completed');
    expect(done.data.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const kinds = (await get(t, `/goods/v1/box/info/?projectId=${r.projectId}`)).data.kinds;
    const assignment = (await t.ctx.db.kysely.selectFrom('box_releases').select('assignment').where('project_id', '=', r.projectId).executeTakeFirstOrThrow()).assignment!.split(',').map(Number);
    const drawn = kinds[assignment[box.serial - 1]!];
    expect(done.data.item).toMatchObject({ tokenId: o.mintTokenId, kind: { index: drawn.index, name: drawn.name, count: drawn.count }, supply: 6 });
    expect(t.consume.submitted).toHaveLength(1);
    expect(t.consume.confirmed()).toHaveLength(1);
    // On chain: the box token is gone, the item is the holder's.
    expect(t.chain.owners.has(String(box.token_id))).toBe(false);
    expect(t.chain.owners.get(o.mintTokenId)).toBe(alice.address);
    // In the database: the box burned (not in my assets), one item minted for me with its history.
    const boxRow = await t.ctx.db.kysely.selectFrom('goods').select(['status']).where('id', '=', box.id).executeTakeFirstOrThrow();
    expect(boxRow.status).toBe('burned');
    const items = await t.ctx.db.kysely.selectFrom('goods').selectAll().where('project_id', '=', r.itemProjectId).execute();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ owner_user_id: alice.userId, chain_status: 'minted', status: 'held', serial: box.serial, token_id: Number(o.mintTokenId) });
    const mine = await call(t, '/goods/v1/list/home', { status: 'all', pageNum: 1, pageSize: 50 }, alice.h);
    expect(mine.data.list.map((g: any) => g.id)).not.toContain(box.id);
    expect(mine.data.list.map((g: any) => g.id)).toContain(Number(items[0]!.id));
    const boxHistory = await get(t, `/goods/v1/list/historyAction/?id=${box.id}`);
    expect(boxHistory.data.list[0]).toMatchObject({ action: 'open', txHash: done.data.txHash });
    const itemHistory = await get(t, `/goods/v1/list/historyAction/?id=${items[0]!.id}`);
    expect(itemHistory.data.list[0]).toMatchObject({ action: 'mint', txHash: done.data.txHash });
    const detail = await get(t, `/goods/v1/details/?id=${box.id}`);
    expect(detail.data.status).toBe('burned');

    // Replays after completion change nothing.
    const again = await call(t, '/goods/v1/openBox/confirm', { goodsId: box.id, signature }, alice.h);
    expect(again.data.status).toBe('completed');
    await runJobs(t);
    expect(t.consume.submitted).toHaveLength(1);
    expect(await t.ctx.db.kysely.selectFrom('goods').select('id').where('project_id', '=', r.itemProjectId).execute()).toHaveLength(1);
    // The contract itself refuses the same consent twice.
    expect(t.consume.verdict(t.consume.submitted[0]!.consume, signature)).toMatchObject({ ok: false, reason: 'FlowIdUsed' });
  });

  it('a listed box cannot be opened, a box being opened cannot be listed, an opened box cannot be listed', async () => {
    const r = await makeBoxRelease(t, alice);
    await reveal(t, r.revealEpoch);
    const [a, b, c] = await boxesOf(r.projectId);
    await listForSale(t, alice, a!.id, 1000);
    const listed = await get(t, `/goods/v1/openBox/?goodsId=${a!.id}`, alice.h);
    expect(listed).toMatchObject({ status: '1013', message: 'the collectible is already on sale' });

    expectOk(await get(t, `/goods/v1/openBox/?goodsId=${b!.id}`, alice.h));
    const pre = await call(t, '/goods/v1/preOpenSale', { goodsId: b!.id, price: 1000 }, alice.h);
    expect(pre).toMatchObject({ status: '1013', message: 'the collectible is held by a box opening, a compose or a transfer in progress' });

    const open = await get(t, `/goods/v1/openBox/?goodsId=${c!.id}`, alice.h);
    expectOk(await call(t, '/goods/v1/openBox/confirm', { goodsId: c!.id, signature: signConsent(alice, open.data.typedData) }, alice.h));
    await runJobs(t);
    const burned = await call(t, '/goods/v1/preOpenSale', { goodsId: c!.id, price: 1000 }, alice.h);
    expect(burned).toMatchObject({ status: '1013', message: 'this collectible has been burned' });
    const reopen = await get(t, `/goods/v1/openBox/?goodsId=${c!.id}`, alice.h);
    expect(reopen.data.status).toBe('completed');

    // Someone else's box, a collectible that is not a box.
    const bob = await makeTrader(t);
    expect(await get(t, `/goods/v1/openBox/?goodsId=${b!.id}`, bob.h)).toMatchObject({ status: '1012' });
    const item = await t.ctx.db.kysely.selectFrom('goods').select('id').where('project_id', '=', r.itemProjectId).executeTakeFirstOrThrow();
    expect(await get(t, `/goods/v1/openBox/?goodsId=${item.id}`, alice.h)).toMatchObject({ status: '1050', message: 'this collectible is not a blind box' });
    expect(await get(t, '/goods/v1/openBox/?goodsId=999999', alice.h)).toMatchObject({ status: '1404', http: 404 });
    expect(await get(t, '/goods/v1/openBox/?goodsId=abc', alice.h)).toMatchObject({ status: '1001', http: 400 });
  });

  it('refuses a wrong signature, and releases the box when the chain refuses (the box moved)', async () => {
    const r = await makeBoxRelease(t, alice);
    await reveal(t, r.revealEpoch);
    const [a] = await boxesOf(r.projectId);
    const open = await get(t, `/goods/v1/openBox/?goodsId=${a!.id}`, alice.h);
    const mallory = await makeTrader(t);
    const forged = signConsume(mallory.key, open.data.typedData.message, open.data.typedData.domain);
    expect(await call(t, '/goods/v1/openBox/confirm', { goodsId: a!.id, signature: forged }, alice.h)).toMatchObject({ status: '1008', message: 'the opening signature does not verify' });
    expect(await call(t, '/goods/v1/openBox/confirm', { goodsId: a!.id, signature: '0x1234' }, alice.h)).toMatchObject({ status: '1008' });
    expectOk(await call(t, '/goods/v1/openBox/confirm', { goodsId: a!.id, signature: signConsent(alice, open.data.typedData) }, alice.h));
    // The wallet moves the box elsewhere before the operator's transaction runs.
    t.chain.transfer(String(a!.token_id), mallory.address);
    await runJobs(t);
    const row = await t.ctx.db.kysely.selectFrom('box_openings').selectAll().where('goods_id', '=', a!.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'failed', fail_reason: 'NotTokenOwner' });
    expect(await t.ctx.db.kysely.selectFrom('goods_holds').selectAll().where('goods_id', '=', a!.id).execute()).toEqual([]);
    const failed = await get(t, `/goods/v1/openBox/?goodsId=${a!.id}`, alice.h);
    expect(failed.data).toMatchObject({ status: 'failed', failReason: 'the chain refused it (NotTokenOwner); the collectibles were released', typedData: null });
    // Opening again is a new attempt with a new consent (the failed one never ran on chain).
    const again = await get(t, `/goods/v1/openBox/?goodsId=${a!.id}&retry=1`, alice.h);
    expect(again.data).toMatchObject({ status: 'signing', flowId: `box:${a!.id}` });
    expect((await t.ctx.db.kysely.selectFrom('box_openings').select('attempt').where('goods_id', '=', a!.id).executeTakeFirstOrThrow()).attempt).toBe(1);
    expect(await t.ctx.db.kysely.selectFrom('goods').select('status').where('id', '=', a!.id).executeTakeFirstOrThrow()).toMatchObject({ status: 'held' });
    expect(await t.ctx.db.kysely.selectFrom('goods').select('id').where('project_id', '=', r.itemProjectId).execute()).toHaveLength(0);
  });

  it('a signing window that expired cannot be confirmed', async () => {
    const r = await makeBoxRelease(t, alice);
    await reveal(t, r.revealEpoch);
    const [a] = await boxesOf(r.projectId);
    const open = await get(t, `/goods/v1/openBox/?goodsId=${a!.id}`, alice.h);
    t.clock.t += t.ctx.config.goodsFlows.holdMs + 1000;
    expect(await call(t, '/goods/v1/openBox/confirm', { goodsId: a!.id, signature: signConsent(alice, open.data.typedData) }, alice.h)).toMatchObject({ status: '1050', message: 'the signing window has expired, please open the box again' });
    // Listing is possible again once the hold expired.
    await listForSale(t, alice, a!.id, 1000);
  });

  it('validates box releases', async () => {
    await expect(createBoxRelease(t.ctx, null, { kinds: [] })).rejects.toThrow();
    await expect(createBoxRelease(t.ctx, null, { kinds: [{ name: 'x', rarity: 'y', count: 0 }] })).rejects.toThrow();
  });
});
