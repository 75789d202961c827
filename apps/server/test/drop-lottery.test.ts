import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawLotteryWinners, lotteryEntriesHash, lotteryWinnersHash, verifyLotteryProof } from '@cfx/protocol/lottery-draw.ts';
import { runLotteryDraws } from '../src/modules/drops/lottery.ts';
import { forgetEpochHeads } from '../src/modules/drops/lottery-beacon.ts';
import { call, type TestApp } from './helpers.ts';
import { expectLedgerBalanced, get, makeTrader, type FakeChain, type Trader } from './market-helpers.ts';
import { buy, makeDrop, makeDropApp, sameIdentity, stock } from './drops-helpers.ts';
import { accountIdOf, installBeacon, phasesAt, setPhases, whitelist, type TestBeacon } from './drop-phases-helpers.ts';
import { importWhitelist } from '../src/modules/drops/whitelist.ts';

/**
 * The fair drop (issue #10, docs/drops.md "Lottery") through the API on a real database (SQLite, or
 * PostgreSQL with TEST_PG_URL). The chain's epochs come from TestBeacon, the documented test-only
 * stand-in (drop-lottery.chain.test.ts draws from a real epoch of the embedded node): one entry per
 * identity, numbered; the entry list frozen when sign-up ends; the draw only once the published
 * epoch is confirmed; the stored winners recomputed from the stored inputs; winners buy only in
 * their window and only their quota, then the rest is public; entrants are told; never oversold.
 */
let t: TestApp & { chain: FakeChain };
let beacon: TestBeacon;
beforeAll(async () => {
  t = await makeDropApp();
  beacon = installBeacon(t);
});
afterAll(async () => {
  await t?.close();
});

const enter = (u: Trader, projectId: number, lang = 'en') => call(t, '/api/user/mint/v1/lottery/enter', { projectId }, { ...u.h, lang });
const mintinfo = (u: Trader, projectId: number) => call(t, '/api/user/mint/v1/mintinfo', { projectId }, u.h);
const proof = (projectId: number) => get(t, `/official/lottery/proof/?projectId=${projectId}`, { lang: 'en' });
const lotteryRow = (projectId: number) => t.ctx.db.kysely.selectFrom('drop_lotteries').selectAll().where('project_id', '=', projectId).executeTakeFirstOrThrow();
/** One pass of the lottery sweep (as the job worker runs it every 2 s); returns the release's lottery status after it. */
const sweep = async (projectId: number) => {
  forgetEpochHeads(t.ctx);
  await runLotteryDraws(t.ctx);
  return (await lotteryRow(projectId)).status;
};

/** A lottery release: sign-up from +10 s to +70 s, rights 10 minutes, then public; draw epoch = beacon + 100. */
async function lotteryRelease(opts: { supply?: number; winners?: number; winQuota?: number } = {}) {
  const { projectId } = await makeDrop(t, { supply: opts.supply ?? 10, priceFen: 1000, perIdentityLimit: 3, maxPerOrder: 3 });
  const drawEpoch = beacon.mined + 100;
  await setPhases(
    t,
    projectId,
    phasesAt(t, [{ kind: 'lottery_signup', from: 10, to: 70 }, { kind: 'lottery_rights', priceFen: 900 }, { kind: 'public', from: 70 }]),
    { drawEpoch, winners: opts.winners ?? 2, winQuota: opts.winQuota ?? 2, rightsMinutes: 10 },
  );
  return { projectId, drawEpoch };
}

describe('configuring a lottery', () => {
  it('publishes the draw epoch before sign-up opens and refuses an epoch the chain has reached', async () => {
    const { projectId } = await makeDrop(t, { supply: 10 });
    const signup = () => phasesAt(t, [{ kind: 'lottery_signup', from: 10, to: 70 }, { kind: 'lottery_rights' }]);
    await expect(setPhases(t, projectId, signup(), { drawEpoch: beacon.mined, winners: 2, winQuota: 1, rightsMinutes: 5 })).rejects.toMatchObject({ vars: { reason: `the draw epoch must be in the future (the chain is at ${beacon.mined})` } });
    await expect(setPhases(t, projectId, signup(), { drawEpoch: beacon.mined + 5, winners: 6, winQuota: 2, rightsMinutes: 5 })).rejects.toMatchObject({ vars: { reason: 'winners × quota exceeds the supply' } });
    await expect(setPhases(t, projectId, phasesAt(t, [{ kind: 'lottery_signup', from: 0, to: 70 }, { kind: 'lottery_rights' }]), { drawEpoch: beacon.mined + 5, winners: 2, winQuota: 1, rightsMinutes: 5 })).rejects.toMatchObject({
      vars: { reason: 'the draw epoch must be published before sign-up opens' },
    });
    await setPhases(t, projectId, signup(), { drawEpoch: beacon.mined + 5, winners: 2, winQuota: 1, rightsMinutes: 5 });
    const pub = await get(t, `/official/mint/?projectId=${projectId}`);
    expect(pub.data.list[0].lottery).toMatchObject({ drawEpoch: beacon.mined + 5, winners: 2, winQuota: 1, rightsMinutes: 5, algorithm: 'lottery-sha256-v1', status: 'open', entries: 0, blockHash: null, chainEpoch: beacon.mined });
  });
});

describe('the lottery’s units are there when its rights open', () => {
  it('no public phase before it; the whitelist’s quotas before it + winners × quota must fit the supply, at configuration and at every whitelist import', async () => {
    const { projectId } = await makeDrop(t, { supply: 10 });
    const lottery = (winners: number, winQuota: number) => ({ drawEpoch: beacon.mined + 50, winners, winQuota, rightsMinutes: 5 });
    const pubFirst = phasesAt(t, [{ kind: 'public', from: 10, to: 20 }, { kind: 'lottery_signup', from: 20, to: 70 }, { kind: 'lottery_rights' }]);
    await expect(setPhases(t, projectId, pubFirst, lottery(1, 1))).rejects.toMatchObject({ vars: { reason: 'a public phase before the lottery could sell its units' } });

    const a = await makeTrader(t);
    const b = await makeTrader(t);
    await whitelist(t, projectId, [[a, 3], [b, 2]]); // 5 units the whitelist phase may hand out
    const wlFirst = () => phasesAt(t, [{ kind: 'whitelist', from: 10, to: 20 }, { kind: 'lottery_signup', from: 20, to: 70 }, { kind: 'lottery_rights' }, { kind: 'public', from: 80 }]);
    await expect(setPhases(t, projectId, wlFirst(), lottery(3, 2))).rejects.toMatchObject({ vars: { reason: "the whitelist's 5 unit(s) before the lottery + winners × quota (6) exceed the supply (10)" } });
    await setPhases(t, projectId, wlFirst(), lottery(2, 2)); // 5 + 4 ≤ 10
    // A lottery after the public phase only (no whitelist phase first) may use the whole supply.
    const { projectId: other } = await makeDrop(t, { supply: 10 });
    await whitelist(t, other, [[a, 9]]);
    await setPhases(t, other, phasesAt(t, [{ kind: 'lottery_signup', from: 20, to: 70 }, { kind: 'lottery_rights' }, { kind: 'whitelist', from: 80, to: 90 }]), lottery(5, 2));

    // Imports: raising the whitelist to 7 units (7 + 4 > 10) is refused and writes nothing; to 6 it fits exactly.
    const accountA = await accountIdOf(t, a);
    await expect(importWhitelist(t.ctx, projectId, `accountId,quota\n${accountA},5`, { now: t.clock.t })).rejects.toMatchObject({ status: '1001', key: 'whitelistOverLottery', vars: { total: 7, lottery: 4, supply: 10 } });
    await expect(importWhitelist(t.ctx, projectId, `accountId,quota\n${accountA},5`, { now: t.clock.t, dryRun: true })).rejects.toMatchObject({ key: 'whitelistOverLottery' });
    expect((await t.ctx.db.kysely.selectFrom('drop_whitelist').select('quota').where('project_id', '=', projectId).where('user_id', '=', a.userId).executeTakeFirstOrThrow()).quota).toBe(3);
    expect((await importWhitelist(t.ctx, projectId, `accountId,quota\n${accountA},4`, { now: t.clock.t })).ok).toBe(true);
    // replace: only the file counts
    expect((await importWhitelist(t.ctx, projectId, `accountId,quota\n${accountA},6`, { now: t.clock.t, replace: true })).ok).toBe(true);
  });
});

describe('sign-up, draw, rights, public', () => {
  it('runs the whole fair drop', async () => {
    const { projectId, drawEpoch } = await lotteryRelease({ supply: 10, winners: 2, winQuota: 2 });
    const users = await Promise.all(Array.from({ length: 5 }, () => makeTrader(t)));
    const twin = await makeTrader(t);
    await sameIdentity(t, users[0]!, twin);

    expect(await enter(users[0]!, projectId)).toMatchObject({ status: '1026', message: 'lottery sign-up has not opened yet' });
    t.clock.t += 10_000;
    expect(await buy(t, users[0]!, projectId, 1)).toMatchObject({ status: '1024', message: 'lottery sign-up is open: winners may buy after the draw' });
    for (const [i, u] of users.entries()) {
      const r = await enter(u, projectId, 'zh');
      expect(r, r.message).toMatchObject({ status: '000000', message: `报名成功，您的报名号为${i + 1}`, data: { entryNo: i + 1 } });
    }
    // one entry per identity, whichever account asks
    expect(await enter(twin, projectId)).toMatchObject({ status: '1026', message: 'you have already entered (entry no. 1); one entry per person' });
    expect(await enter(users[2]!, projectId)).toMatchObject({ status: '1026' });
    expect((await enter(await makeTrader(t, 'no-realname'), projectId)).status).toBe('1011');
    expect((await enter(await makeTrader(t, 'no-wallet'), projectId)).status).toBe('1011');
    expect((await mintinfo(twin, projectId)).data).toMatchObject({ phases: [{ kind: 'lottery_signup', state: 'active' }, { kind: 'lottery_rights', state: 'pending', startAt: null }, { kind: 'public', state: 'pending' }], lotteryMine: { entered: true, entryNo: 1, won: null } });
    // The release's cards carry the phase windows (the badge says 抽签报名中, not 发售中): rights from the end of sign-up, open-ended until drawn.
    const signupEnd = t.clock.t + 60_000;
    const card = async () => (await call(t, '/goods/v1/project/details', { id: projectId })).data;
    expect((await card()).phases).toEqual([
      { kind: 'lottery_signup', startAt: t.clock.t, endAt: signupEnd },
      { kind: 'lottery_rights', startAt: signupEnd, endAt: null },
      { kind: 'public', startAt: signupEnd, endAt: null },
    ]);
    const listed = (await call(t, '/goods/v1/project/index', { pageSize: 50 })).data.list.find((p: { id: number }) => p.id === projectId);
    expect(listed).toMatchObject({ status: 'on_sale', phases: [{ kind: 'lottery_signup' }, { kind: 'lottery_rights' }, { kind: 'public' }] });

    // sign-up ends; the list is frozen but the epoch is not there yet: no draw, nobody buys
    t.clock.t += 60_000;
    expect(await enter(await makeTrader(t), projectId)).toMatchObject({ status: '1026', message: 'lottery sign-up has closed' });
    expect(await sweep(projectId)).toBe('closed');
    const frozen = await lotteryRow(projectId);
    expect(frozen).toMatchObject({ status: 'closed', entry_count: 5, block_hash: null });
    expect(Number(frozen.closed_epoch)).toBeLessThan(drawEpoch);
    const masked = (await t.ctx.db.kysely.selectFrom('drop_lottery_entries').select('masked_account').where('project_id', '=', projectId).orderBy('entry_no').execute()).map((e) => e.masked_account);
    expect(frozen.entries_hash).toBe(lotteryEntriesHash(masked));
    expect(await buy(t, users[1]!, projectId, 1)).toMatchObject({ status: '1024', message: 'waiting for the draw: winners may buy after it' });
    beacon.mined = drawEpoch; // mined but not yet confirmed
    expect(await sweep(projectId)).toBe('closed');

    // epoch E confirmed: drawn from its block hash
    beacon.reach(drawEpoch + 3);
    t.clock.t += 5_000;
    const drawnAt = t.clock.t;
    expect(await sweep(projectId)).toBe('drawn');
    const l = await lotteryRow(projectId);
    expect(await sweep(projectId)).toBe('drawn');
    expect(await lotteryRow(projectId)).toEqual(l); // drawn once
    expect((await card()).phases[1]).toEqual({ kind: 'lottery_rights', startAt: signupEnd, endAt: drawnAt + 10 * 60_000 });
    const blockHash = await beacon.epochBlockHash(drawEpoch);
    expect(l).toMatchObject({ status: 'drawn', block_hash: blockHash, drawn_at: drawnAt });
    const winners = drawLotteryWinners(blockHash!, 5, 2);
    expect(l.winners_list).toBe(winners.join(','));
    expect(l.winners_hash).toBe(lotteryWinnersHash(winners));
    const won = (await t.ctx.db.kysely.selectFrom('drop_lottery_entries').select(['entry_no', 'won']).where('project_id', '=', projectId).orderBy('entry_no').execute()).filter((e) => Number(e.won) === 1).map((e) => Number(e.entry_no));
    expect(won).toEqual(winners);

    // the public proof recomputes to the stored result
    const p = await proof(projectId);
    expect(p).toMatchObject({ status: '000000', code: 200, data: { algorithm: 'lottery-sha256-v1', drawEpoch, blockHash, blockUrl: `https://confluxscan.io/block/${blockHash}`, winnersCount: 2, winners, status: 'drawn' } });
    expect(p.data.entries).toEqual(masked);
    expect(verifyLotteryProof({ blockHash: p.data.blockHash, winnersCount: p.data.winnersCount, entries: p.data.entries, entriesHash: p.data.entriesHash, winners: p.data.winners, winnersHash: p.data.winnersHash })).toMatchObject({ entriesOk: true, winnersOk: true });

    // everyone who entered is told (drop_events, read by the message center)
    const events = await t.ctx.db.kysely.selectFrom('drop_events').selectAll().where('project_id', '=', projectId).orderBy('user_id').execute();
    expect(events).toHaveLength(5);
    for (const e of events) {
      const payload = JSON.parse(e.payload);
      const entryNo = users.findIndex((u) => u.userId === Number(e.user_id)) + 1;
      expect(payload).toMatchObject({ won: winners.includes(entryNo), entryNo, quota: winners.includes(entryNo) ? 2 : 0, rightsEndAt: drawnAt + 600_000, drawEpoch, link: `/projects/dropping/${projectId}` });
      expect(e.kind).toBe('lottery_result');
    }

    // the rights window: winners only, their quota only, at the rights price
    const winner = users[winners[0]! - 1]!;
    const loser = users.find((_, i) => !winners.includes(i + 1))!;
    expect((await mintinfo(winner, projectId)).data).toMatchObject({ phases: [{ state: 'ended' }, { kind: 'lottery_rights', state: 'active', startAt: drawnAt, endAt: drawnAt + 600_000 }, { state: 'upcoming', startAt: drawnAt + 600_000 }], my: { eligible: true, quota: 2, remaining: 2 }, lotteryMine: { won: true, quota: 2 } });
    expect((await mintinfo(loser, projectId)).data).toMatchObject({ my: { eligible: false, quota: 0 }, lotteryMine: { entered: true, won: false } });
    expect(await buy(t, loser, projectId, 1)).toMatchObject({ status: '1025', message: 'this phase is for lottery winners only' });
    const o = await buy(t, winner, projectId, 2);
    expect(o, o.message).toMatchObject({ status: '000000', data: { drop: { quantity: 2, unitPriceFen: 900 } } });
    expect(await buy(t, winner, projectId, 1)).toMatchObject({ status: '1023', message: 'your lottery quota is used up (2 in total)' });
    // the rights end: the rest goes public, for everyone at the release limit
    t.clock.t = drawnAt + 600_000 - 1;
    expect((await buy(t, loser, projectId, 1)).status).toBe('1025');
    t.clock.t = drawnAt + 600_000;
    expect((await buy(t, loser, projectId, 3)).status).toBe('000000');
    expect((await buy(t, winners.length > 1 ? users[winners[1]! - 1]! : loser, projectId, 3)).status).toBe('000000');
    const crowd = await Promise.all(Array.from({ length: 6 }, () => makeTrader(t)));
    const answers = await Promise.all(crowd.map((u) => buy(t, u, projectId, 1)));
    expect(answers.filter((r) => r.status === '000000')).toHaveLength(2); // 10 − 2 − 3 − 3
    expect((await stock(t, projectId))).toMatchObject({ supply: 10, taken: 10 });
    await expectLedgerBalanced(t);
  });

  it('closes sign-up the moment the draw epoch has a block (the seed is public) and draws without waiting for the published end', async () => {
    const { projectId, drawEpoch } = await lotteryRelease({ supply: 4, winners: 2, winQuota: 1 });
    t.clock.t += 10_000;
    const a = await makeTrader(t);
    expect((await enter(a, projectId)).status).toBe('000000');
    beacon.mined = drawEpoch;
    forgetEpochHeads(t.ctx);
    expect(await enter(await makeTrader(t), projectId)).toMatchObject({ status: '1026', message: 'lottery sign-up has closed' });
    expect(await sweep(projectId)).toBe('closed'); // frozen early
    const l = await lotteryRow(projectId);
    expect(l).toMatchObject({ status: 'closed', closed_at: t.clock.t, closed_epoch: drawEpoch });
    beacon.reach(drawEpoch);
    expect(await sweep(projectId)).toBe('drawn');
    expect((await lotteryRow(projectId)).winners_list).toBe('1');
    // the sign-up phase ended when the list was frozen; the winner's window is open now
    const info = (await mintinfo(a, projectId)).data;
    expect(info.phases[0]).toMatchObject({ state: 'ended', endAt: t.clock.t });
    expect(info).toMatchObject({ current: 1, my: { eligible: true, quota: 1 } });
    expect((await buy(t, a, projectId, 1)).status).toBe('000000');
  });

  it('concurrent entries get consecutive numbers, one per identity', async () => {
    const { projectId } = await lotteryRelease({ supply: 100, winners: 10, winQuota: 1 });
    t.clock.t += 10_000;
    const people = await Promise.all(Array.from({ length: 12 }, () => makeTrader(t)));
    const twins = await Promise.all(people.slice(0, 4).map(async (p) => {
      const tw = await makeTrader(t);
      await sameIdentity(t, p, tw);
      return tw;
    }));
    const answers = await Promise.all([...people, ...twins].map((u) => enter(u, projectId)));
    expect(answers.filter((r) => r.status === '000000')).toHaveLength(12);
    expect(answers.filter((r) => r.status !== '000000').every((r) => r.status === '1026' || r.status === '1021')).toBe(true);
    const nos = (await t.ctx.db.kysely.selectFrom('drop_lottery_entries').select('entry_no').where('project_id', '=', projectId).orderBy('entry_no').execute()).map((e) => Number(e.entry_no));
    expect(nos).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect((await lotteryRow(projectId)).entry_count).toBe(12);
  });

  it('shows no entries in the proof before the list is frozen, and answers a release without a lottery', async () => {
    const { projectId } = await lotteryRelease();
    expect((await proof(projectId)).data).toMatchObject({ status: 'open', entries: [], entriesHash: null, winners: [], blockHash: null, blockUrl: null });
    const plain = await makeDrop(t);
    expect(await proof(plain.projectId)).toMatchObject({ status: '1026', message: 'this release has no lottery' });
    expect(await proof(999_999_999)).toMatchObject({ http: 404, status: '1404' });
    expect(await enter(await makeTrader(t), plain.projectId)).toMatchObject({ status: '1026' });
  });
});

describe('without a chain', () => {
  it('never draws: there is no seed (the test beacon is the only fallback)', async () => {
    const app = await makeDropApp();
    try {
      const { projectId } = await makeDrop(app, { supply: 4 });
      const now = app.clock.t;
      const { setDropPhases } = await import('../src/modules/drops/phases.ts');
      await setDropPhases(app.ctx, projectId, [{ kind: 'lottery_signup', startAt: now + 1000, endAt: now + 2000 }, { kind: 'lottery_rights' }], { drawEpoch: 10, winners: 1, winQuota: 1, rightsMinutes: 1 });
      app.clock.t += 5000;
      expect(await runLotteryDraws(app.ctx)).toBe(1); // frozen
      expect(await runLotteryDraws(app.ctx)).toBe(0);
      const l = await app.ctx.db.kysely.selectFrom('drop_lotteries').select(['status', 'closed_epoch']).where('project_id', '=', projectId).executeTakeFirstOrThrow();
      expect(l).toEqual({ status: 'closed', closed_epoch: null });
    } finally {
      await app.close();
    }
  });
});
