import crypto from 'node:crypto';
import type { LotteryInput, PhaseInput } from '@cfx/contract/drop-phases.ts';
import { setTestBeacon, type EpochBeacon } from '../src/modules/drops/lottery-beacon.ts';
import { setDropPhases } from '../src/modules/drops/phases.ts';
import { importWhitelist } from '../src/modules/drops/whitelist.ts';
import type { TestApp } from './helpers.ts';
import type { Trader } from './market-helpers.ts';

/**
 * Helpers of the sale-phase / whitelist / lottery tests (docs/drops.md "Sale phases"). TestBeacon
 * is the documented test-only stand-in for the chain's epochs (lottery-beacon.ts): the test says
 * which epoch is mined / confirmed and what the block hashes are. The real chain is used by
 * drop-lottery.chain.test.ts.
 */
export class TestBeacon implements EpochBeacon {
  mined = 50;
  confirmed = 50;
  hashes = new Map<number, string>();
  async latestEpoch(tag: 'latest_mined' | 'latest_confirmed') {
    return tag === 'latest_mined' ? this.mined : this.confirmed;
  }
  async epochBlockHash(epoch: number) {
    if (epoch > this.mined) return null;
    let h = this.hashes.get(epoch);
    if (!h) this.hashes.set(epoch, (h = `0x${crypto.createHash('sha256').update(`test-block-${epoch}-${crypto.randomUUID()}`).digest('hex')}`));
    return h;
  }
  /** Epoch `e` is mined and confirmed. */
  reach(e: number) {
    this.mined = Math.max(this.mined, e);
    this.confirmed = Math.max(this.confirmed, e);
  }
}

export function installBeacon(t: TestApp): TestBeacon {
  const b = new TestBeacon();
  setTestBeacon(t.ctx, b);
  return b;
}

/** Phases with times relative to the test clock's now (seconds). */
export function phasesAt(t: TestApp, list: { kind: PhaseInput['kind']; from?: number; to?: number; priceFen?: number }[]): PhaseInput[] {
  const now = t.clock.t;
  return list.map((p) => ({
    kind: p.kind,
    startAt: p.from === undefined ? null : now + p.from * 1000,
    endAt: p.to === undefined ? null : now + p.to * 1000,
    priceFen: p.priceFen ?? null,
  }));
}

export async function setPhases(t: TestApp, projectId: number, phases: PhaseInput[], lottery: LotteryInput | null = null) {
  await setDropPhases(t.ctx, projectId, phases, lottery);
}

export async function accountIdOf(t: TestApp, u: Trader): Promise<string> {
  return (await t.ctx.db.kysely.selectFrom('users').select('account_id').where('id', '=', u.userId).executeTakeFirstOrThrow()).account_id;
}

/** Whitelists the traders with their quotas (by account id). */
export async function whitelist(t: TestApp, projectId: number, entries: [Trader, number][]) {
  const lines = await Promise.all(entries.map(async ([u, q]) => `${await accountIdOf(t, u)},${q}`));
  const r = await importWhitelist(t.ctx, projectId, `accountId,quota\n${lines.join('\n')}`, { now: t.clock.t });
  if (!r.ok) throw new Error(`whitelist import failed: ${JSON.stringify(r.errors)}`);
  return r;
}
