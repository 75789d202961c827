import crypto from 'node:crypto';
import { BOX_DRAW_ALGORITHM, BOX_DRAW_MAX, boxCommitment } from '@cfx/protocol/box-draw.ts';
import type { AppContext } from '../../context.ts';
import { inTx, lockKey } from '../../db/tx.ts';
import { invalidateProjectInfo } from '../catalog/index.ts';
import { imageId, imageUrl } from '../content/index.ts';
import { consumeChainOf } from '../compose/index.ts';
import { grantUnits, insertRelease, pickCreator } from '../compose/index.ts';
import { forgetDropReleases } from '../drops/index.ts';
import { setDropSettings } from '../drops/index.ts';
import type { StoredKind } from './box-release.ts';

export interface BoxKindInput {
  name: string;
  rarity: string;
  count: number;
  image?: string;
  attributes?: { trait: string; value: string }[];
}

export interface BoxReleaseInput {
  name?: string;
  description?: string;
  /** In the published order; the counts sum to the supply. */
  kinds: BoxKindInput[];
  priceFen?: number;
  /** Sale start relative to now (default: a minute ago). */
  startInMs?: number;
  /** Sale end relative to now (default: none — the sale ends when sold out). */
  endInMs?: number | null;
  holdingDays?: number;
  /** The reveal epoch: absolute, or this many epochs after the current one (default 1). */
  revealEpoch?: number;
  revealInEpochs?: number;
  /** Tests only: a fixed secret (else 32 random bytes). */
  serverSeed?: string;
  perIdentityLimit?: number;
  maxPerOrder?: number;
  /** Boxes given to this user now (dev route, tests), minted by the mint job. */
  grantTo?: { userId: number; count: number };
}

/**
 * A blind-box release (staff tooling; the DEV_MODE route and the tests call it): the box release,
 * sold as an ordinary drop (its collectibles are the boxes), and the release of its items, whose
 * token range gives box serial s the item token `items.token_start + s − 1`. Before anything is
 * sold the odds, the commitment sha256(serverSeed) and the reveal epoch are fixed in
 * `box_releases`; the secret itself is stored sealed (ctx.secrets) until the reveal publishes it.
 */
export async function createBoxRelease(ctx: AppContext, callerUserId: number | null, input: BoxReleaseInput) {
  const kinds = input.kinds;
  const supply = kinds.reduce((n, k) => n + k.count, 0);
  if (!kinds.length || supply < 1 || supply > BOX_DRAW_MAX || kinds.some((k) => !Number.isSafeInteger(k.count) || k.count < 0)) {
    throw new Error('a box release needs kinds whose counts are whole numbers summing to 1…1,000,000');
  }
  const now = ctx.now();
  const serverSeed = input.serverSeed ?? crypto.randomBytes(32).toString('hex');
  const chain = consumeChainOf(ctx);
  const currentEpoch = chain ? await chain.currentEpoch() : 0;
  const revealEpoch = input.revealEpoch ?? currentEpoch + (input.revealInEpochs ?? 1);
  const out = await inTx(ctx, async (trx) => {
    await lockKey(ctx, trx, 'token-ranges');
    const creatorId = await pickCreator(trx, callerUserId, now);
    const tag = crypto.randomInt(1000, 10_000);
    const name = input.name ?? `测试盲盒 ${tag}`;
    const box = await insertRelease(ctx, trx, {
      creatorId,
      name,
      description: input.description ?? '<p>盲盒：开启后随机获得一件藏品，概率与揭晓证明公开可查。</p>',
      supply,
      priceFen: input.priceFen ?? 990,
      saleStartAt: now + (input.startInMs ?? -60_000),
      saleEndAt: input.endInMs == null ? null : now + input.endInMs,
      holdingDays: input.holdingDays ?? 0,
    }, now);
    const items = await insertRelease(ctx, trx, {
      creatorId,
      name: `${name} · 藏品`,
      description: `<p>${escapeHtml(name)} 开启所得的藏品。</p>`,
      supply,
      priceFen: input.priceFen ?? 990,
      saleStartAt: now + (input.startInMs ?? -60_000),
      holdingDays: input.holdingDays ?? 0,
      notForSale: true,
    }, now);
    const stored: StoredKind[] = kinds.map((k, i) => ({
      name: k.name,
      rarity: k.rarity,
      count: k.count,
      image: k.image ?? imageUrl(imageId('g', (items.seed + i) % 8, items.seed + i, i + 1)),
      attributes: k.attributes ?? [{ trait: '款式', value: k.name }, { trait: '稀有度', value: k.rarity }],
    }));
    await trx
      .insertInto('box_releases')
      .values({
        project_id: box.projectId,
        item_project_id: items.projectId,
        kinds: JSON.stringify(stored),
        commitment: boxCommitment(serverSeed),
        seed_sealed: ctx.secrets.seal(serverSeed),
        reveal_epoch: revealEpoch,
        algorithm: BOX_DRAW_ALGORITHM,
        status: 'committed',
        server_seed: null,
        block_hash: null,
        assignment: null,
        assignment_hash: null,
        revealed_at: null,
        created_at: now,
      })
      .execute();
    await setDropSettings(ctx, box.projectId, {
      ...(input.perIdentityLimit ? { perIdentityLimit: input.perIdentityLimit } : {}),
      ...(input.maxPerOrder ? { maxPerOrder: input.maxPerOrder } : {}),
    }, trx);
    const goods = input.grantTo ? await grantUnits(trx, ctx, box.projectId, input.grantTo.userId, input.grantTo.count, now) : [];
    return { projectId: box.projectId, itemProjectId: items.projectId, revealEpoch, goods };
  });
  invalidateProjectInfo(ctx);
  forgetDropReleases(ctx);
  return out;
}

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
