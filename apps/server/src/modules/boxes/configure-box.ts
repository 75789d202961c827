import crypto from 'node:crypto';
import { Status } from '@cfx/contract/envelope.ts';
import { BOX_LIMITS } from '@cfx/contract/admin-catalog-rules.ts';
import { BOX_DRAW_ALGORITHM, BOX_DRAW_MAX, boxCommitment } from '@cfx/protocol/box-draw.ts';
import type { AppContext } from '../../context.ts';
import { inTx, lockKey } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { imageId, imageUrl } from '../content/index.ts';
import { consumeChainOf } from '../compose/index.ts';
import { insertRelease } from '../compose/index.ts';
import { releaseChanged, releaseState } from '../drops/index.ts';
import { loadBoxRelease, type StoredKind } from './box-release.ts';

export interface BoxKindSetting {
  name: string;
  rarity: string;
  count: number;
  /** An image URL the caller has checked; omitted: a generated one. */
  image?: string | null;
}

/**
 * The blind-box settings of an existing release (the console's box editor; createBoxRelease is the
 * tooling that makes a new pair of releases at once). Before the sale starts:
 *
 *   - a plain release becomes a box release: the release of its items is created (sold out, its
 *     own token range, box serial s → item token `items.token_start + s − 1`) and the
 *     `box_releases` row is written with the odds, the commitment sha256(serverSeed) of a fresh
 *     secret (stored sealed) and the reveal epoch (the chain's newest + `revealInEpochs`);
 *   - a box release gets new odds (names, rarities, counts, images); the commitment and the reveal
 *     epoch stay as published.
 *
 * The counts must sum to the release's supply (exactly `count` boxes hold each kind), so the supply
 * of a box release is changed by changing it before it becomes a box. One transaction; refused
 * (1073) once the sale has started or for a release that is itself the items of a box or the result
 * of a compose rule.
 */
export async function configureBoxRelease(ctx: AppContext, projectId: number, kindsIn: BoxKindSetting[], opts: { revealInEpochs?: number | null } = {}) {
  const kinds = kindsIn.map((k, i) => {
    const name = k.name.trim();
    const rarity = k.rarity.trim();
    if (!name || [...name].length > BOX_LIMITS.kindNameMax || !rarity || [...rarity].length > BOX_LIMITS.rarityMax || !Number.isSafeInteger(k.count) || k.count < 0) {
      throw new ApiError(Status.INVALID, 'boxBadKind', { i: i + 1, n: BOX_LIMITS.kindNameMax, r: BOX_LIMITS.rarityMax });
    }
    return { name, rarity, count: k.count, image: k.image ?? null };
  });
  if (!kinds.length || kinds.length > BOX_LIMITS.kindsMax) throw new ApiError(Status.INVALID, 'boxBadKinds', { n: BOX_LIMITS.kindsMax });
  if (new Set(kinds.map((k) => k.name)).size !== kinds.length) throw new ApiError(Status.INVALID, 'boxDuplicateKind');
  const chain = consumeChainOf(ctx);
  const currentEpoch = chain ? await chain.currentEpoch() : 0;
  const now = ctx.now();
  const out = await inTx(ctx, async (trx) => {
    const st = await releaseState(ctx, trx, projectId, now);
    if (st.role !== 'release' && st.role !== 'box') throw new ApiError(Status.STAFF_STATE, 'boxNotAllowed');
    if (st.locks.boxLocked) throw new ApiError(Status.STAFF_STATE, 'boxLocked');
    const supply = st.row.supply;
    const sum = kinds.reduce((n, k) => n + k.count, 0);
    if (sum !== supply) throw new ApiError(Status.INVALID, 'boxCountsSum', { sum, supply });
    if (supply > BOX_DRAW_MAX) throw new ApiError(Status.INVALID, 'releaseBadSupply', { max: BOX_DRAW_MAX });
    const existing = await loadBoxRelease(trx, projectId);
    if (existing) {
      const stored: StoredKind[] = kinds.map((k, i) => ({
        name: k.name,
        rarity: k.rarity,
        count: k.count,
        image: k.image ?? existing.kindList[i]?.image ?? imageUrl(imageId('g', (existing.item_project_id + i) % 8, existing.item_project_id + i, i + 1)),
        attributes: [{ trait: '款式', value: k.name }, { trait: '稀有度', value: k.rarity }],
      }));
      await trx.updateTable('box_releases').set({ kinds: JSON.stringify(stored) }).where('project_id', '=', projectId).where('status', '=', 'committed').execute();
      return { created: false, itemProjectId: existing.item_project_id, revealEpoch: existing.reveal_epoch, commitment: existing.commitment, before: existing.kindList.map((k) => `${k.name}×${k.count}`), kinds: stored };
    }
    await lockKey(ctx, trx, 'token-ranges');
    const items = await insertRelease(ctx, trx, {
      creatorId: st.row.creator_id,
      name: `${st.row.name} · 藏品`.slice(0, 60),
      description: `<p>${escapeHtml(st.row.name)} 开启所得的藏品。</p>`,
      supply,
      priceFen: st.row.price_fen,
      saleStartAt: st.row.sale_start_at,
      holdingDays: st.row.holding_days,
      notForSale: true,
    }, now);
    const stored: StoredKind[] = kinds.map((k, i) => ({
      name: k.name,
      rarity: k.rarity,
      count: k.count,
      image: k.image ?? imageUrl(imageId('g', (items.seed + i) % 8, items.seed + i, i + 1)),
      attributes: [{ trait: '款式', value: k.name }, { trait: '稀有度', value: k.rarity }],
    }));
    const serverSeed = crypto.randomBytes(32).toString('hex');
    const revealEpoch = currentEpoch + (opts.revealInEpochs ?? 1);
    const commitment = boxCommitment(serverSeed);
    await trx
      .insertInto('box_releases')
      .values({
        project_id: projectId,
        item_project_id: items.projectId,
        kinds: JSON.stringify(stored),
        commitment,
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
    return { created: true, itemProjectId: items.projectId, revealEpoch, commitment, before: null, kinds: stored };
  });
  releaseChanged(ctx, projectId);
  releaseChanged(ctx, out.itemProjectId, { renamed: out.created });
  return out;
}

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
