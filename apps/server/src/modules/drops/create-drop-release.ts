import crypto from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { inTx, lockKey, type Q } from '../../db/tx.ts';
import { invalidateProjectInfo } from '../catalog/index.ts';
import { imageId, imageUrl } from '../content/index.ts';
import { forgetDropReleases } from './release.ts';
import { setDropSettings } from './settings.ts';
import { syncReleaseRoyalty } from './sync-release-royalty.ts';
import { ensureStock } from './stock.ts';

export interface DropReleaseInput {
  supply?: number | null;
  priceFen?: number | null;
  startInMs?: number | null;
  perIdentityLimit?: number | null;
  maxPerOrder?: number | null;
  /** The creator royalty on resales, per mille (0–100); null / omitted = ROYALTY_PERMILLE. */
  royaltyPermille?: number | null;
}

/**
 * A new release sold as a drop, with a fresh token range on the asset contract (after every token
 * id and release range in use). Used by the DEV_MODE route POST /dev/drop-release (browser tests,
 * trying the primary sale) and by the tests. The creator is an existing creator other than
 * `callerUserId`, or a new creator account when there is none.
 */
export async function createDropRelease(ctx: AppContext, callerUserId: number | null, input: DropReleaseInput = {}) {
  const now = ctx.now();
  const supply = input.supply ?? 100;
  const out = await inTx(ctx, async (trx) => {
    await lockKey(ctx, trx, 'token-ranges');
    const creatorId = await someCreator(trx, callerUserId, now);
    const tokenStart = (await nextFreeTokenId(trx)) + 1;
    const seed = crypto.randomInt(1, 2 ** 31);
    const style = seed % 8;
    const p = await trx
      .insertInto('projects')
      .values({
        creator_id: creatorId,
        name: `测试发售 ${String(seed).slice(-4)}`,
        cover: imageUrl(imageId('r', style, seed)),
        category: 'art',
        description_html: '<p>开发模式创建的测试发售。</p>',
        supply,
        sold: 0,
        price_fen: input.priceFen ?? 990,
        sale_start_at: now + (input.startInMs ?? -60_000),
        sale_end_at: null,
        contract_address: ctx.chain?.collectible ?? null,
        token_start: tokenStart,
        token_end: tokenStart + supply - 1,
        holding_days: 0,
        sort: 0,
        created_at: now,
        royalty_permille: input.royaltyPermille ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const projectId = Number(p.id);
    await ensureStock(trx, projectId, now);
    await setDropSettings(ctx, projectId, {
      ...(input.perIdentityLimit ? { perIdentityLimit: input.perIdentityLimit } : {}),
      ...(input.maxPerOrder ? { maxPerOrder: input.maxPerOrder } : {}),
    }, trx);
    return { projectId, tokenStart: String(tokenStart), tokenEnd: String(tokenStart + supply - 1) };
  });
  invalidateProjectInfo(ctx);
  forgetDropReleases(ctx);
  // Its royalty to the Collectible (EIP-2981), when it has one of its own (the default needs no call for a test release).
  if (input.royaltyPermille !== undefined && input.royaltyPermille !== null) await syncReleaseRoyalty(ctx, out.projectId);
  return out;
}

/** The highest token id in use: by a collectible or reserved by a release's range (at least 1,000,000). */
export async function nextFreeTokenId(q: Q): Promise<number> {
  const a = await q.selectFrom('goods').select((e) => e.fn.max<number>('token_id').as('m')).executeTakeFirstOrThrow();
  const b = await q.selectFrom('projects').select((e) => e.fn.max<number>('token_end').as('m')).executeTakeFirstOrThrow();
  return Math.max(Number(a.m ?? 0), Number(b.m ?? 0), 1_000_000);
}

async function someCreator(trx: Q, callerUserId: number | null, now: number): Promise<number> {
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
      account_id: `8${tag}`, mobile: `100${tag}`.slice(0, 11), password_hash: null, nickname: `创作者${tag.slice(-4)}`, profpic_id: '1', is_realname: 0,
      is_creator: 1, wallet_address: null, invite_code: crypto.randomBytes(4).toString('hex').toUpperCase().slice(0, 6), invited_by: null, regist_channel: 'dev', created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await trx
    .insertInto('creators')
    .values({ user_id: Number(u.id), name: `测试创作者${tag.slice(-4)}`, avatar: imageUrl(imageId('c', 1, Number(tag))), banner: imageUrl(imageId('cb', 1, Number(tag))), intro: '', media_links: '[]', sort: 0, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
