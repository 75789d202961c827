import type { AppContext } from '../../context.ts';
import { GroupCommit } from '../../db/group-commit.ts';
import type { JobResult } from '../../jobs/runner.ts';
import { defineJob } from '../../jobs/define-job.ts';
import { imageId, imageUrl, parseImageId, RARITIES, rarityOf } from '../content/index.ts';
import { wakeMinting } from './mint-batches.ts';
import { commitSerials, peekSerials } from './stock.ts';
import { keyList } from '../../db/key-list.ts';
import { inTx, isUniqueViolation, rowParts, unindexedEq } from '../../db/tx.ts';
import { compareText } from '../../util/compare.ts';

/**
 * The fulfilment of paid drop orders (durable job `fulfil:<orderNo>`, inserted with the payment).
 * The fulfil jobs the worker claims together (up to its claim batch) are written in ONE transaction
 * (group commit, like the reservations and the balance payments: under a drop's flood a transaction
 * per order kept SQLite's one connection from the buyers' requests), in this lock order:
 *
 *   1. orders      paid → settling, one conditional UPDATE for the batch (an order already moved,
 *                  e.g. by a second run, is not fulfilled again), their events
 *   2. goods       insert the collectibles (owner = buyer, chain_status pending, token id =
 *                  release token_start + serial − 1, drop_order_no = the order) with their price
 *                  point and `mint` history action, multi-row; the serials are the release's next
 *                  ones as its stock row says (read without a lock), consecutive per release and
 *                  handed out to the orders by order number
 *   3. drop_stock  per release (sorted), last: next_serial += n, paid += n on the serial read in 2
 *                  (commitSerials). On PostgreSQL every reservation and release of the sale queues
 *                  for this one row, which a fulfilment so holds for one statement and the commit,
 *                  not for its goods inserts. When the row moved since the read (another process's
 *                  allocation: a stale holder; a supply change), or the goods' unique (release,
 *                  serial) index meets another's rows, the transaction is rolled back and run again.
 *
 * A batch that fails is written again order by order (each one's failure is its own job's retry).
 * The mint job then mints the collectibles to the buyers' linked wallets in mintBatch transactions
 * and, once every collectible of an order is minted, completes the order (complete-drop-order.ts).
 */
/** The durable job `fulfil:<orderNo>` of a paid drop order (its handler: fulfilInBatch). */
export const fulfilJob = defineJob<'fulfil', { orderNo: string }>('fulfil', {
  key: (p) => `fulfil:${p.orderNo}`,
  read: (job) => ({ orderNo: String(job.payload.orderNo ?? job.key.replace(/^fulfil:/, '')) }),
});

const MAX_BATCH = 500;
/** Goods rows per insert statement (≈ 17 columns each: far below SQLite's and PostgreSQL's parameter limits). */
const CHUNK = 150;
/** One group commit per database (db/group-commit.ts); one writer at a time (the serials of a release are allocated in order). */
const queues = new WeakMap<object, GroupCommit<string, JobResult>>();

/** Fulfils one paid drop order together with the others that arrive while the previous batch is written. */
export function fulfilInBatch(ctx: AppContext, orderNo: string): Promise<JobResult> {
  let q = queues.get(ctx.db);
  if (!q) {
    q = new GroupCommit({
      maxBatch: MAX_BATCH,
      write: async (nos) => {
        await writeFulfilment(ctx, nos);
        return nos.map((): JobResult => ({ done: true }));
      },
    });
    queues.set(ctx.db, q);
  }
  return q.submit(orderNo);
}

/** The stock row moved between the serials' read and their commit: run the transaction again. */
class SerialsMoved extends Error {}

/** Writes the fulfilment of these orders in one transaction; returns how many collectibles it created. */
export async function writeFulfilment(ctx: AppContext, orderNos: readonly string[]): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await writeFulfilmentOnce(ctx, orderNos);
    } catch (err) {
      if (attempt < 4 && (err instanceof SerialsMoved || isUniqueViolation(err))) continue;
      throw err;
    }
  }
}

async function writeFulfilmentOnce(ctx: AppContext, orderNos: readonly string[]): Promise<number> {
  const now = ctx.now();
  const nos = [...new Set(orderNos)].sort(compareText);
  const created = await inTx(ctx, async (trx) => {
    const found = await trx
      .selectFrom('orders')
      .innerJoin('projects', 'projects.id', 'orders.project_id')
      .select(['orders.order_no', 'orders.kind', 'orders.status', 'orders.project_id', 'orders.quantity', 'orders.unit_price_fen', 'orders.buyer_user_id', 'projects.name', 'projects.cover', 'projects.token_start', 'projects.supply'])
      .where('orders.order_no', 'in', keyList(ctx, nos))
      .orderBy('orders.order_no')
      .execute();
    const due = found.filter((o) => o.kind === 'drop' && o.status === 'paid' && o.project_id !== null && o.quantity !== null && o.token_start !== null);
    if (!due.length) return 0;
    // 1. paid → settling, only the orders still paid (a second run of a job moves nothing)
    const moved = new Set(
      (
        await trx
          .updateTable('orders')
          .set({ status: 'settling' })
          .where('order_no', 'in', keyList(ctx, due.map((o) => o.order_no)))
          .where(unindexedEq('orders.status', 'paid')) // the order numbers are the way in, not the status
          .returning('order_no')
          .execute()
      ).map((r) => r.order_no),
    );
    const orders = due.filter((o) => moved.has(o.order_no));
    if (!orders.length) return 0;
    await trx
      .insertInto('order_events')
      .values(orders.map((o) => ({ order_no: o.order_no, from_status: 'paid' as const, to_status: 'settling' as const, note: `${Number(o.quantity)} collectible(s) allocated, minting`, at: now })))
      .execute();
    // serials per release, in release order; each release's orders get consecutive ranges by order number
    const byProject = new Map<number, typeof orders>();
    for (const o of orders) {
      const list = byProject.get(Number(o.project_id)) ?? [];
      list.push(o);
      byProject.set(Number(o.project_id), list);
    }
    const rows = [];
    const serials: { projectId: number; first: number; n: number }[] = [];
    for (const projectId of [...byProject.keys()].sort((a, b) => a - b)) {
      const list = byProject.get(projectId)!;
      const n = list.reduce((a, o) => a + Number(o.quantity), 0);
      const stock = await peekSerials(trx, projectId);
      if (!stock || stock.next + n - 1 > stock.supply) throw new Error(`drop stock of release ${projectId}: no ${n} serials left to allocate`);
      serials.push({ projectId, first: stock.next, n });
      let serial = stock.next;
      for (const o of list) {
        const art = parseImageId(new URL(o.cover, 'http://x').searchParams.get('id') ?? '');
        const digits = Math.max(4, String(o.supply).length);
        for (let k = 0; k < Number(o.quantity); k++, serial++) {
          rows.push({
            project_id: projectId,
            serial,
            token_id: Number(o.token_start) + serial - 1,
            contract: ctx.chain?.collectible ?? null,
            chain_status: 'pending' as const,
            mint_tx_hash: null,
            minted_at: null,
            owner_user_id: Number(o.buyer_user_id),
            name: `${o.name} #${String(serial).padStart(digits, '0')}`,
            image: art ? imageUrl(imageId('g', art.style, art.seed, 0, serial)) : o.cover,
            attributes: JSON.stringify([
              { trait: '系列', value: o.name },
              ...(art ? [{ trait: '稀有度', value: RARITIES[rarityOf(art.seed, serial)] }] : []),
            ]),
            status: 'held' as const,
            sale_price_fen: null,
            listed_at: null,
            last_price_fen: Number(o.unit_price_fen),
            acquired_at: now,
            created_at: now,
            drop_order_no: o.order_no,
          });
        }
      }
    }
    // 2. the collectibles, their price points and `mint` history actions
    for (const part of rowParts(ctx, rows, CHUNK)) {
      const ids = await trx.insertInto('goods').values(part).returning(['id', 'project_id', 'serial']).execute();
      const bySerial = new Map(part.map((r) => [`${r.project_id}:${r.serial}`, r]));
      const made = ids.map((g) => ({ id: Number(g.id), row: bySerial.get(`${Number(g.project_id)}:${Number(g.serial)}`)! }));
      await trx.insertInto('goods_price_history').values(made.map((g) => ({ goods_id: g.id, price_fen: g.row.last_price_fen, at: now }))).execute();
      await trx
        .insertInto('goods_history_actions')
        .values(made.map((g) => ({ goods_id: g.id, action: 'mint' as const, from_user_id: null, to_user_id: g.row.owner_user_id, price_fen: g.row.last_price_fen, tx_hash: null, at: now })))
        .execute();
    }
    // 3. the serials counted allocated and paid, the stock rows last
    for (const a of serials) if (!(await commitSerials(trx, a.projectId, a.first, a.n, now))) throw new SerialsMoved(`drop stock of release ${a.projectId} moved`);
    return rows.length;
  });
  if (created) wakeMinting(ctx);
  return created;
}
