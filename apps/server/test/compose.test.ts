import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expireComposes } from '../src/modules/compose/compose-flow.ts';
import { call, expectOk, grantFragments, makeFlowsApp, makeRule, runJobs, signConsent, type FlowsApp } from './consume-helpers.ts';
import { listForSale, makeTrader, type Trader } from './market-helpers.ts';

/**
 * Compose / fragments on SQLite and PostgreSQL (TEST_PG_URL), with the fake chain: the recipe,
 * the reservation of the selection and of the result, one consumeAndMint burning exactly the
 * selection and minting one result exactly once, and the release on refusal and expiry.
 */
describe('compose', () => {
  let t: FlowsApp;
  let alice: Trader;
  beforeEach(async () => {
    t = await makeFlowsApp();
    alice = await makeTrader(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const goodsRow = (id: number) => t.ctx.db.kysely.selectFrom('goods').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const usedTimes = async (ruleId: number) => Number((await t.ctx.db.kysely.selectFrom('compose_rules').select('used_times').where('id', '=', ruleId).executeTakeFirstOrThrow()).used_times);

  it('burns exactly the selected fragments and mints one result, exactly once', async () => {
    const rule = await makeRule(t, alice, { count: 3, grant: 5 });
    const ids = rule.goods.map((g) => g.goodsId);
    const pick = [ids[4]!, ids[0]!, ids[2]!];
    // My progress and my fragments.
    const rules = await call(t, '/api/compose/v1/composerule', { pageNum: 1, pageSize: 10 }, alice.h);
    expectOk(rules);
    expect(rules.data.list[0]).toMatchObject({ id: rule.ruleId, status: 'active', canCompose: true, remaining: 10, ingredients: [{ projectId: rule.fragmentProjectIds[0], count: 3, held: 5, enough: true }] });
    const all = await call(t, '/goods/v1/chipAll', {}, alice.h);
    expect(all.data).toEqual([expect.objectContaining({ projectId: rule.fragmentProjectIds[0], count: 5, available: 5, ruleIds: [rule.ruleId] })]);

    const sel = await call(t, '/api/compose/v1/selectfragment', { ruleId: rule.ruleId, goodsIds: pick }, alice.h);
    expectOk(sel);
    expect(sel.message).toMatch(/confirm within 5 minute/);
    expect(sel.data).toMatchObject({ status: 'selected', ruleId: rule.ruleId });
    expect(sel.data.goods.map((g: any) => g.goodsId)).toEqual([...pick].sort((a, b) => a - b));
    // Reserved: a selected fragment cannot be listed meanwhile; the others can.
    expect(await call(t, '/goods/v1/preOpenSale', { goodsId: pick[0], price: 1000 }, alice.h)).toMatchObject({ status: '1013', message: 'the collectible is held by a box opening, a compose or a transfer in progress' });
    const chip = await call(t, '/goods/v1/chip', { projectId: rule.fragmentProjectIds[0], pageNum: 1, pageSize: 10 }, alice.h);
    expect(chip.data).toMatchObject({ count: 5, available: 2 });
    expect(chip.data.page.list.filter((g: any) => g.blockedBy === 'locked').map((g: any) => g.id).sort()).toEqual([...pick].sort());

    const consent = await call(t, '/api/compose/v1/confirmcompose', { composeNo: sel.data.composeNo }, alice.h);
    expectOk(consent);
    const td = consent.data.typedData;
    const tokens = sel.data.goods.map((g: any) => g.tokenId);
    expect(td.message).toEqual({ owner: alice.hex, burnIds: tokens, mintIds: [consent.data.record.result.tokenId], flowId: `compose:${sel.data.composeNo}` });
    expect(td.domain).toMatchObject({ name: 'Collectible', verifyingContract: t.chain.collectibleHex });
    expect(consent.data.record).toMatchObject({ status: 'confirmed', result: { serial: 1 } });
    expect(await usedTimes(rule.ruleId)).toBe(1);
    // Confirming again answers the same consent (no second result).
    expect((await call(t, '/api/compose/v1/confirmcompose', { ruleId: rule.ruleId, goodsIds: pick }, alice.h)).data.record.composeNo).toBe(sel.data.composeNo);
    expect(await usedTimes(rule.ruleId)).toBe(1);

    const signature = signConsent(alice, td);
    const submits = await Promise.all([1, 2, 3].map(() => call(t, '/api/compose/v1/submitcompose', { composeNo: sel.data.composeNo, signature }, alice.h)));
    for (const s of submits) expect(s.status, s.message).toBe('000000');
    await runJobs(t);
    await runJobs(t);
    const rec = await call(t, '/api/compose/v1/composerecord', { composeNo: sel.data.composeNo, pageNum: 1, pageSize: 10 }, alice.h);
    expect(rec.data.list[0]).toMatchObject({ status: 'completed', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const resultId = rec.data.list[0].result.goodsId as number;
    // One transaction burned exactly the three and minted one result to me.
    expect(t.consume.submitted).toHaveLength(1);
    expect(t.consume.confirmed()).toHaveLength(1);
    for (const id of pick) expect((await goodsRow(id)).status).toBe('burned');
    for (const id of ids.filter((x) => !pick.includes(x))) expect((await goodsRow(id)).status).toBe('held');
    for (const tk of tokens) expect(t.chain.owners.has(tk)).toBe(false);
    expect(t.chain.owners.get(consent.data.record.result.tokenId)).toBe(alice.address);
    expect(await goodsRow(resultId)).toMatchObject({ owner_user_id: alice.userId, chain_status: 'minted', project_id: rule.resultProjectId, serial: 1 });
    expect(await t.ctx.db.kysely.selectFrom('goods').select('id').where('project_id', '=', rule.resultProjectId).execute()).toHaveLength(1);
    expect(await usedTimes(rule.ruleId)).toBe(1);
    const hist = await t.ctx.db.kysely.selectFrom('goods_history_actions').select(['goods_id', 'action']).where('action', 'in', ['burn', 'compose']).execute();
    expect(hist.filter((h) => h.action === 'burn').map((h) => Number(h.goods_id)).sort()).toEqual([...pick].sort());
    expect(hist.filter((h) => h.action === 'compose').map((h) => Number(h.goods_id))).toEqual([resultId]);
    // Replays after completion change nothing.
    expect((await call(t, '/api/compose/v1/submitcompose', { composeNo: sel.data.composeNo, signature }, alice.h)).data.status).toBe('completed');
    await runJobs(t);
    expect(t.consume.submitted).toHaveLength(1);
    expect((await call(t, '/goods/v1/chipAll', {}, alice.h)).data[0]).toMatchObject({ count: 2, available: 2 });
  });

  it('refuses a selection that does not fit the recipe or is not usable', async () => {
    const rule = await makeRule(t, alice, { count: 3, grant: 4 });
    const ids = rule.goods.map((g) => g.goodsId);
    expect(await call(t, '/api/compose/v1/selectfragment', { ruleId: rule.ruleId, goodsIds: ids.slice(0, 2) }, alice.h)).toMatchObject({ status: '1051', message: expect.stringMatching(/^the selected fragments do not match the recipe \(it needs 3×/) });
    expect(await call(t, '/api/compose/v1/selectfragment', { ruleId: rule.ruleId, goodsIds: ids }, alice.h)).toMatchObject({ status: '1051' });
    expect(await call(t, '/api/compose/v1/selectfragment', { ruleId: rule.ruleId, goodsIds: [ids[0], ids[0], ids[1]] }, alice.h)).toMatchObject({ status: '1051' });
    // Someone else's fragment; a listed fragment; another rule's id.
    const bob = await makeTrader(t);
    const [bobs] = await grantFragments(t, bob, rule.fragmentProjectIds[0]!, 1);
    expect(await call(t, '/api/compose/v1/selectfragment', { ruleId: rule.ruleId, goodsIds: [ids[0], ids[1], bobs!.goodsId] }, alice.h)).toMatchObject({ status: '1012' });
    await listForSale(t, alice, ids[3]!, 1000);
    expect(await call(t, '/api/compose/v1/selectfragment', { ruleId: rule.ruleId, goodsIds: [ids[0], ids[1], ids[3]] }, alice.h)).toMatchObject({
      status: '1013',
      message: 'a selected fragment cannot be used now (on sale, in its holding period, locked, or not at your linked wallet)',
    });
    expect(await call(t, '/api/compose/v1/selectfragment', { ruleId: 999999, goodsIds: ids.slice(0, 3) }, alice.h)).toMatchObject({ status: '1404', http: 404 });
    expect(await call(t, '/api/compose/v1/selectfragment', { ruleId: rule.ruleId, goodsIds: [] }, alice.h)).toMatchObject({ status: '1001', http: 400 });
    expect(await call(t, '/api/compose/v1/selectfragment', { ruleId: rule.ruleId, goodsIds: ids.slice(0, 3) })).toMatchObject({ status: '1100' });
    // A bad signature.
    const sel = await call(t, '/api/compose/v1/selectfragment', { ruleId: rule.ruleId, goodsIds: ids.slice(0, 3) }, alice.h);
    const consent = await call(t, '/api/compose/v1/confirmcompose', { composeNo: sel.data.composeNo }, alice.h);
    expect(await call(t, '/api/compose/v1/submitcompose', { composeNo: sel.data.composeNo, signature: signConsent(bob, consent.data.typedData) }, alice.h)).toMatchObject({ status: '1008', message: 'the compose signature does not verify' });
    expect(await call(t, '/api/compose/v1/submitcompose', { composeNo: sel.data.composeNo, signature: signConsent(alice, consent.data.typedData) }, bob.h)).toMatchObject({ status: '1404' });
  });

  it('releases the fragments and the result when the chain refuses (a fragment moved)', async () => {
    const rule = await makeRule(t, alice, { count: 3, grant: 3 });
    const ids = rule.goods.map((g) => g.goodsId);
    const sel = await call(t, '/api/compose/v1/selectfragment', { ruleId: rule.ruleId, goodsIds: ids }, alice.h);
    const consent = await call(t, '/api/compose/v1/confirmcompose', { composeNo: sel.data.composeNo }, alice.h);
    expectOk(await call(t, '/api/compose/v1/submitcompose', { composeNo: sel.data.composeNo, signature: signConsent(alice, consent.data.typedData) }, alice.h));
    // The wallet sends one fragment away before the operator's transaction.
    const bob = await makeTrader(t);
    t.chain.transfer(rule.goods[1]!.tokenId, bob.address);
    await runJobs(t);
    const rec = (await call(t, '/api/compose/v1/composerecord', { pageNum: 1, pageSize: 10 }, alice.h)).data.list[0];
    expect(rec).toMatchObject({ status: 'failed', failReason: 'the chain refused it (NotTokenOwner); the collectibles were released' });
    expect(await t.ctx.db.kysely.selectFrom('goods_holds').selectAll().execute()).toEqual([]);
    expect(await usedTimes(rule.ruleId)).toBe(0);
    for (const id of ids) expect((await goodsRow(id)).status).toBe('held');
    expect(t.chain.owners.get(rule.goods[0]!.tokenId)).toBe(alice.address);
    expect(await t.ctx.db.kysely.selectFrom('goods').select('id').where('project_id', '=', rule.resultProjectId).execute()).toHaveLength(0);
    // The other two can be listed again.
    await listForSale(t, alice, ids[0]!, 1000);
  });

  it('reserves results atomically, and unsigned composes expire and give everything back', async () => {
    const bob = await makeTrader(t);
    const rule = await makeRule(t, alice, { count: 2, grant: 2, maxTimes: 1 });
    const bobs = await grantFragments(t, bob, rule.fragmentProjectIds[0]!, 2);
    const a = await call(t, '/api/compose/v1/selectfragment', { ruleId: rule.ruleId, goodsIds: rule.goods.map((g) => g.goodsId) }, alice.h);
    const b = await call(t, '/api/compose/v1/selectfragment', { ruleId: rule.ruleId, goodsIds: bobs.map((g) => g.goodsId) }, bob.h);
    const [ca, cb] = await Promise.all([
      call(t, '/api/compose/v1/confirmcompose', { composeNo: a.data.composeNo }, alice.h),
      call(t, '/api/compose/v1/confirmcompose', { composeNo: b.data.composeNo }, bob.h),
    ]);
    expect([ca.status, cb.status].sort()).toEqual(['000000', '1051']);
    const [won, lost] = ca.status === '000000' ? [{ u: alice, c: ca }, { u: bob, r: b }] : [{ u: bob, c: cb }, { u: alice, r: a }];
    expect((lost.u === alice ? ca : cb).message).toBe('no results of this compose are left');
    expect(await usedTimes(rule.ruleId)).toBe(1);
    // The winner never signs: after the hold time the sweep releases the result and the fragments.
    t.clock.t += t.ctx.config.goodsFlows.holdMs + 1000;
    expect(await expireComposes(t.ctx)).toBe(2);
    expect(await usedTimes(rule.ruleId)).toBe(0);
    expect((await call(t, '/api/compose/v1/composerecord', { composeNo: won.c.data.record.composeNo, pageNum: 1, pageSize: 1 }, won.u.h)).data.list[0].status).toBe('expired');
    expect(await call(t, '/api/compose/v1/submitcompose', { composeNo: won.c.data.record.composeNo, signature: signConsent(won.u, won.c.data.typedData) }, won.u.h)).toMatchObject({ status: '1051', message: 'the compose has expired, please select the fragments again' });
    // The other user composes now with a fresh selection.
    const again = await call(t, '/api/compose/v1/confirmcompose', { ruleId: rule.ruleId, goodsIds: (lost.r.data.goods as any[]).map((g) => g.goodsId) }, lost.u.h);
    expectOk(again);
    expectOk(await call(t, '/api/compose/v1/submitcompose', { composeNo: again.data.record.composeNo, signature: signConsent(lost.u, again.data.typedData) }, lost.u.h));
    await runJobs(t);
    expect((await call(t, '/api/compose/v1/composerecord', { pageNum: 1, pageSize: 1 }, lost.u.h)).data.list[0].status).toBe('completed');
    const rules = await call(t, '/api/compose/v1/composerule', { ruleId: rule.ruleId, pageNum: 1, pageSize: 1 }, won.u.h);
    expect(rules.data.list[0]).toMatchObject({ status: 'sold_out', remaining: 0, canCompose: false });
    expect(await call(t, '/api/compose/v1/selectfragment', { ruleId: rule.ruleId, goodsIds: (won.c.data.record.goods as any[]).map((g) => g.goodsId) }, won.u.h)).toMatchObject({ status: '1051', message: 'no results of this compose are left' });
  });

  it('getfragmentlist shows my fragments per ingredient, usable ones first', async () => {
    const rule = await makeRule(t, alice, { ingredients: 2, count: 1, grant: 2 });
    const first = rule.goods.filter((_, i) => i < 2);
    await listForSale(t, alice, first[0]!.goodsId, 1000);
    const list = await call(t, '/api/compose/v1/getfragmentlist', { ruleId: rule.ruleId }, alice.h);
    expectOk(list);
    expect(list.data.rule.ingredients.map((i: any) => i.held)).toEqual([1, 2]);
    expect(list.data.ingredients[0].items.map((i: any) => [i.id, i.available, i.blockedBy])).toEqual([
      [first[1]!.goodsId, true, null],
      [first[0]!.goodsId, false, 'on_sale'],
    ]);
    // A new selection replaces my earlier unsigned one (its fragments are usable again).
    const pick1 = [first[1]!.goodsId, rule.goods[2]!.goodsId];
    const s1 = await call(t, '/api/compose/v1/selectfragment', { ruleId: rule.ruleId, goodsIds: pick1 }, alice.h);
    const s2 = await call(t, '/api/compose/v1/selectfragment', { ruleId: rule.ruleId, goodsIds: [first[1]!.goodsId, rule.goods[3]!.goodsId] }, alice.h);
    expectOk(s2);
    expect((await call(t, '/api/compose/v1/composerecord', { composeNo: s1.data.composeNo, pageNum: 1, pageSize: 1 }, alice.h)).data.list[0].status).toBe('cancelled');
    expect(await call(t, '/api/compose/v1/composerule', { ruleId: 424242, pageNum: 1, pageSize: 10 }, alice.h)).toMatchObject({ status: '000000', data: { list: [], total: 0 } });
  });
});
