import type { BoxInfo, BoxKind } from '@cfx/contract/goods-flows.ts';
import { boxAssignmentHash, boxDrawSeed, drawBoxAssignment } from '@cfx/protocol/box-draw.ts';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import { consumeChainOf } from '../compose/index.ts';

/** A kind as stored in box_releases.kinds (its index is its position). */
export interface StoredKind {
  name: string;
  rarity: string;
  count: number;
  image: string;
  attributes: { trait: string; value: string }[];
}

export async function loadBoxRelease(q: Q, projectId: number) {
  const r = await q.selectFrom('box_releases').selectAll().where('project_id', '=', projectId).executeTakeFirst();
  return r ? { ...r, project_id: Number(r.project_id), item_project_id: Number(r.item_project_id), reveal_epoch: Number(r.reveal_epoch), kindList: JSON.parse(r.kinds) as StoredKind[] } : undefined;
}
export type BoxReleaseRow = NonNullable<Awaited<ReturnType<typeof loadBoxRelease>>>;

export const kindView = (k: StoredKind, index: number): BoxKind => ({ index, name: k.name, image: k.image, rarity: k.rarity, count: k.count, attributes: k.attributes });

/**
 * The sale is over — the reveal may happen — when every box is sold and allocated (paid ≥ supply),
 * or the sale window closed and no unpaid order could still take a box (taken = paid). Until then
 * nobody, the platform included, can know which serial holds what: the seed depends on the block
 * hash of an epoch fixed before the sale, and a buyer cannot choose a serial (serials are handed
 * out in payment order).
 */
export async function saleOver(ctx: AppContext, q: Q, projectId: number): Promise<boolean> {
  const r = await q
    .selectFrom('projects')
    .leftJoin('drop_stock', 'drop_stock.project_id', 'projects.id')
    .select(['projects.supply', 'projects.sale_end_at', 'drop_stock.taken', 'drop_stock.paid'])
    .where('projects.id', '=', projectId)
    .executeTakeFirst();
  if (!r) return false;
  const taken = Number(r.taken ?? 0);
  const paid = Number(r.paid ?? 0);
  if (paid >= Number(r.supply)) return true;
  return r.sale_end_at !== null && ctx.now() >= Number(r.sale_end_at) && taken === paid;
}

/**
 * Reveals one box release when it is due: the sale is over and the chain has reached the reveal
 * epoch. seed = sha256(serverSeed ‖ blockHash(E)); the assignment is the documented shuffle
 * (packages/protocol/src/box-draw.ts); the seed, the block hash, the assignment and its hash are
 * published in one conditional update (committed → revealed: exactly once). True when revealed now.
 */
export async function revealBox(ctx: AppContext, projectId: number): Promise<boolean> {
  const chain = consumeChainOf(ctx);
  const row = await loadBoxRelease(ctx.db.kysely, projectId);
  if (!chain || !row || row.status !== 'committed') return false;
  if (!(await saleOver(ctx, ctx.db.kysely, projectId))) return false;
  const blockHash = await chain.blockHash(row.reveal_epoch);
  if (!blockHash) return false;
  const serverSeed = ctx.secrets.open(row.seed_sealed);
  const assignment = drawBoxAssignment(row.kindList.map((k) => k.count), serverSeed, blockHash);
  const res = await ctx.db.kysely
    .updateTable('box_releases')
    .set({ status: 'revealed', server_seed: serverSeed, block_hash: blockHash.toLowerCase(), assignment: assignment.join(','), assignment_hash: boxAssignmentHash(assignment), revealed_at: ctx.now() })
    .where('project_id', '=', projectId)
    .where('status', '=', 'committed')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** The periodic reveal sweep: every committed box release that is due. */
export async function revealDueBoxes(ctx: AppContext): Promise<number> {
  if (!consumeChainOf(ctx)) return 0;
  const rows = await ctx.db.kysely.selectFrom('box_releases').select('project_id').where('status', '=', 'committed').execute();
  let n = 0;
  for (const r of rows) if (await revealBox(ctx, Number(r.project_id))) n++;
  return n;
}

/** The kind index of box serial `serial` (after the reveal). */
export function kindOfSerial(row: BoxReleaseRow, serial: number): number {
  const list = row.assignment!.split(',');
  const k = Number(list[serial - 1]);
  if (!Number.isInteger(k) || k < 0 || k >= row.kindList.length) throw new Error(`box release ${row.project_id}: no kind for serial ${serial}`);
  return k;
}

/** GET /goods/v1/box/info/?projectId=: null for a release that is not a box release. */
export async function getBoxInfo(ctx: AppContext, projectId: number): Promise<BoxInfo | null> {
  const row = await loadBoxRelease(ctx.db.kysely, projectId);
  if (!row) return null;
  const p = await ctx.db.kysely.selectFrom('projects').select(['name', 'supply']).where('id', '=', projectId).executeTakeFirstOrThrow();
  const chain = consumeChainOf(ctx);
  const currentEpoch = chain ? await chain.currentEpoch().catch(() => null) : null;
  return {
    projectId,
    name: p.name,
    itemProjectId: row.item_project_id,
    supply: Number(p.supply),
    kinds: row.kindList.map(kindView),
    algorithm: row.algorithm,
    commitment: row.commitment,
    revealEpoch: row.reveal_epoch,
    currentEpoch,
    saleOver: await saleOver(ctx, ctx.db.kysely, projectId),
    status: row.status,
    reveal:
      row.status === 'revealed'
        ? { serverSeed: row.server_seed!, blockHash: row.block_hash!, seed: boxDrawSeed(row.server_seed!, row.block_hash!), assignmentHash: row.assignment_hash!, revealedAt: Number(row.revealed_at) }
        : null,
    serverTime: ctx.now(),
  };
}
