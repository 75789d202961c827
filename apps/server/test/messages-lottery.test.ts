import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestApp } from './helpers.ts';
import { makeTrader, runJobs, type FakeChain } from './market-helpers.ts';
import { makeDrop, makeDropApp } from './drops-helpers.ts';
import { installBeacon, phasesAt, setPhases, type TestBeacon } from './drop-phases-helpers.ts';
import { drawLotteryWinners } from '@cfx/protocol/lottery-draw.ts';
import { runLotteryDraws } from '../src/modules/drops/lottery.ts';
import { forgetEpochHeads } from '../src/modules/drops/lottery-beacon.ts';
import { messagesOf } from './messages-helpers.ts';
import { deliverDropEvents } from '../src/modules/messages/deliver-drop-events.ts';

/**
 * The lottery's results reach the message center: the draw writes one `drop_events` row per entrant
 * (modules/drops/lottery.ts; inserted here as the draw does), and the message sweep delivers each
 * exactly once — won with the quota and deadline, lost with its own text — to that user only.
 */
let t: TestApp & { chain: FakeChain };
let beacon: TestBeacon;
beforeAll(async () => {
  t = await makeDropApp();
  beacon = installBeacon(t);
});
afterAll(async () => { await t?.close(); });

describe('lottery results', () => {
  it('each drop_events row becomes one message, once, for its user; a second pass and the job worker add nothing', async () => {
    const winner = await makeTrader(t);
    const loser = await makeTrader(t);
    const drop = await makeDrop(t, { startInMs: 3600_000 });
    const rightsEndAt = t.clock.t + 30 * 60_000;
    const ev = (userId: number, won: boolean, entryNo: number) => ({
      kind: 'lottery_result' as const,
      project_id: drop.projectId,
      user_id: userId,
      payload: JSON.stringify({ won, entryNo, quota: won ? 2 : 0, rightsEndAt, name: '测试发售', drawEpoch: 100, link: `/projects/dropping/${drop.projectId}` }),
      created_at: t.clock.t,
      delivered_at: null,
    });
    await t.ctx.db.kysely.insertInto('drop_events').values([ev(winner.userId, true, 1), ev(loser.userId, false, 2)]).execute();
    expect(await deliverDropEvents(t.ctx)).toBe(2);
    expect(await deliverDropEvents(t.ctx)).toBe(0);
    await runJobs(t);
    const w = await messagesOf(t, winner.userId);
    const l = await messagesOf(t, loser.userId);
    expect(w.map((m) => [m.kind, m.title_key, m.dedupe_key])).toEqual([['lottery_result', 'lottery_won.title', `lottery:${drop.projectId}`]]);
    expect(l.map((m) => m.title_key)).toEqual(['lottery_lost.title']);
    const zh = await call(t, '/api/user/message/v1/msglist', {}, { ...winner.h, lang: 'zh' });
    expect(zh.data.list[0]).toMatchObject({ title: '恭喜中签', link: `/projects/dropping/${drop.projectId}` });
    expect(zh.data.list[0].body).toMatch(/^您参与的《测试发售》抽签结果已公布：恭喜中签，您可购买2份，请在\d{4}-\d\d-\d\d \d\d:\d\d前完成购买。$/);
    const en = await call(t, '/api/user/message/v1/msglist', {}, loser.h);
    expect(en.data.list[0]).toMatchObject({ title: 'Lottery result', body: 'The lottery for "测试发售" has been drawn: unfortunately you were not selected.' });
    const rows = await t.ctx.db.kysely.selectFrom('drop_events').select('delivered_at').where('project_id', '=', drop.projectId).execute();
    expect(rows.every((r) => r.delivered_at !== null)).toBe(true);
  });

  it('a real draw (sign-up, freeze, confirmed epoch) tells every entrant once, by the job worker', async () => {
    const { projectId } = await makeDrop(t, { supply: 10, priceFen: 1000, perIdentityLimit: 3, maxPerOrder: 3 });
    const drawEpoch = beacon.mined + 100;
    await setPhases(t, projectId, phasesAt(t, [{ kind: 'lottery_signup', from: 10, to: 70 }, { kind: 'lottery_rights', priceFen: 900 }, { kind: 'public', from: 70 }]), { drawEpoch, winners: 2, winQuota: 2, rightsMinutes: 10 });
    const users = await Promise.all(Array.from({ length: 4 }, () => makeTrader(t)));
    t.clock.t += 10_000;
    for (const u of users) expect((await call(t, '/api/user/mint/v1/lottery/enter', { projectId }, u.h)).status).toBe('000000');
    t.clock.t += 60_000;
    const sweep = async () => {
      forgetEpochHeads(t.ctx);
      await runLotteryDraws(t.ctx);
    };
    await sweep(); // frozen
    beacon.reach(drawEpoch + 3);
    t.clock.t += 5_000;
    await sweep(); // drawn
    const blockHash = await beacon.epochBlockHash(drawEpoch);
    const winners = drawLotteryWinners(blockHash!, 4, 2);
    await runJobs(t); // the message sweep delivers the results
    await runJobs(t);
    for (const [i, u] of users.entries()) {
      const mine = (await messagesOf(t, u.userId)).filter((m) => m.kind === 'lottery_result');
      expect(mine.map((m) => m.title_key)).toEqual([winners.includes(i + 1) ? 'lottery_won.title' : 'lottery_lost.title']);
    }
    const w = users[winners[0]! - 1]!;
    const list = await call(t, '/api/user/message/v1/msglist', { kind: 'lottery_result' }, w.h);
    expect(list.data.list[0].body).toMatch(/you won the right to buy 2; please buy before/);
    expect((await t.ctx.db.kysely.selectFrom('drop_events').select('delivered_at').where('project_id', '=', projectId).execute()).every((r) => r.delivered_at !== null)).toBe(true);
  });
});
