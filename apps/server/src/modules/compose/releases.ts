import crypto from 'node:crypto';
import type { AppContext } from '../../context.ts';
import type { Q } from '../../db/tx.ts';
import { imageId, imageUrl } from '../content/index.ts';
import { nextFreeTokenId } from '../drops/index.ts';
import { allocateSerials, ensureStock, takeStock } from '../drops/index.ts';

/**
 * Releases made for blind boxes and compose (by staff tooling, the dev routes and the tests): a box
 * release and the release of its items, fragment releases, compose result releases. Each gets its
 * own token range on the asset contract after every range in use (call inside a transaction that
 * holds the `token-ranges` lock, like createDropRelease). A release that is not sold (items,
 * results) is created sold out: its stock is all taken, so createOrder answers 1022 and the catalog
 * shows it 已售罄, while its serials are handed out by the flow that creates its collectibles.
 */
export interface ReleaseSpec {
  creatorId: number;
  name: string;
  cover?: string;
  description?: string;
  supply: number;
  priceFen: number;
  saleStartAt: number;
  saleEndAt?: number | null;
  holdingDays?: number;
  /** Not sold: created sold out (items of a box, results of a compose). */
  notForSale?: boolean;
}

export async function insertRelease(ctx: AppContext, trx: Q, s: ReleaseSpec, now: number) {
  const tokenStart = (await nextFreeTokenId(trx)) + 1;
  const seed = crypto.randomInt(1, 2 ** 31);
  const p = await trx
    .insertInto('projects')
    .values({
      creator_id: s.creatorId,
      name: s.name,
      cover: s.cover ?? imageUrl(imageId('r', seed % 8, seed)),
      category: 'art',
      description_html: s.description ?? '',
      supply: s.supply,
      sold: s.notForSale ? s.supply : 0,
      price_fen: s.priceFen,
      sale_start_at: s.saleStartAt,
      sale_end_at: s.saleEndAt ?? null,
      contract_address: ctx.chain?.collectible ?? null,
      token_start: tokenStart,
      token_end: tokenStart + s.supply - 1,
      holding_days: s.holdingDays ?? 0,
      sort: 0,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const projectId = Number(p.id);
  await ensureStock(trx, projectId, now);
  return { projectId, tokenStart, seed };
}

/** An existing creator other than `callerUserId`, or a new creator account when there is none. */
export async function pickCreator(trx: Q, callerUserId: number | null, now: number): Promise<number> {
  const c = await trx
    .selectFrom('creators')
    .select('id')
    .$if(callerUserId !== null, (q) => q.where('user_id', '!=', callerUserId!))
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (c) return Number(c.id);
  const tag = crypto.randomInt(1_000_000_000).toString().padStart(9, '0');
  const u = await trx
    .insertInto('users')
    .values({
      account_id: `7${tag}`, mobile: `101${tag}`.slice(0, 11), password_hash: null, nickname: `创作者${tag.slice(-4)}`, profpic_id: '1', is_realname: 0,
      is_creator: 1, wallet_address: null, invite_code: crypto.randomBytes(4).toString('hex').toUpperCase().slice(0, 6), invited_by: null, regist_channel: 'dev', created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await trx
    .insertInto('creators')
    .values({ user_id: Number(u.id), name: `创作者${tag.slice(-4)}`, avatar: imageUrl(imageId('c', 1, Number(tag))), banner: imageUrl(imageId('cb', 1, Number(tag))), intro: '', media_links: '[]', sort: 0, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/**
 * Gives `n` units of a release to a user as if bought (dev routes, tests): takes the stock,
 * allocates serials and inserts `pending` collectibles that the mint job mints to the user's
 * wallet. Returns their ids and token ids.
 */
export async function grantUnits(trx: Q, ctx: AppContext, projectId: number, userId: number, n: number, now: number) {
  if (n <= 0) return [];
  const p = await trx.selectFrom('projects').select(['name', 'cover', 'token_start', 'supply', 'price_fen']).where('id', '=', projectId).executeTakeFirstOrThrow();
  if (!(await takeStock(trx, projectId, n, now))) throw new Error(`release ${projectId}: not enough stock to grant ${n}`);
  const first = await allocateSerials(trx, projectId, n, now);
  const seed = Number(new URL(p.cover, 'http://x').searchParams.get('id')?.split('-')[2] ?? 1);
  const digits = Math.max(4, String(p.supply).length);
  const rows = [];
  for (let serial = first; serial < first + n; serial++) {
    rows.push({
      project_id: projectId,
      serial,
      token_id: Number(p.token_start) + serial - 1,
      contract: ctx.chain?.collectible ?? null,
      chain_status: 'pending' as const,
      mint_tx_hash: null,
      minted_at: null,
      owner_user_id: userId,
      name: `${p.name} #${String(serial).padStart(digits, '0')}`,
      image: imageUrl(imageId('g', seed % 8, seed, 0, serial)),
      attributes: JSON.stringify([{ trait: '系列', value: p.name }]),
      status: 'held' as const,
      sale_price_fen: null,
      listed_at: null,
      last_price_fen: Number(p.price_fen),
      acquired_at: now,
      created_at: now,
    });
  }
  const ids = await trx.insertInto('goods').values(rows).returning(['id', 'token_id']).execute();
  await trx
    .insertInto('goods_history_actions')
    .values(ids.map((g) => ({ goods_id: Number(g.id), action: 'mint' as const, from_user_id: null, to_user_id: userId, price_fen: null, tx_hash: null, at: now })))
    .execute();
  return ids.map((g) => ({ goodsId: Number(g.id), tokenId: String(g.token_id) }));
}
