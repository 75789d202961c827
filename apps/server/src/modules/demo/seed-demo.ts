import { sql, type Kysely, type Transaction } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { mulberry32 } from '../../util/prng.ts';
import { sanitizeRichText } from '../../util/rich-text.ts';
import { invalidateGoodsLists } from '../catalog/index.ts';
import { invalidateProjectInfo } from '../catalog/index.ts';
import { invalidateSearchIndex } from '../search/index.ts';
import { generateDemo, type DemoCatalog } from './generate-demo.ts';

type SeedCtx = Pick<AppContext, 'db' | 'now' | 'config'>;
export interface SeedResult {
  seeded: boolean;
  users: number;
  projects: number;
  goods: number;
  news: number;
  ms: number;
}

const INVITE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

async function insertBatches<T extends keyof Database>(tx: Kysely<Database>, table: T, rows: any[], per: number) {
  for (let i = 0; i < rows.length; i += per) await tx.insertInto(table).values(rows.slice(i, i + per)).execute();
}

/**
 * Seeds the demo catalogue (generate-demo.ts) when there is no release yet; otherwise does nothing.
 * One transaction (on PostgreSQL under an advisory lock, so several processes starting together
 * seed once). Demo users whose phone number already exists are reused.
 */
export async function seedDemoIfEmpty(ctx: SeedCtx, goodsTarget = ctx.config.demoGoods): Promise<SeedResult> {
  const started = performance.now();
  const now = ctx.now();
  let result: SeedResult = { seeded: false, users: 0, projects: 0, goods: 0, news: 0, ms: 0 };
  const quick = await ctx.db.kysely.selectFrom('projects').select('id').limit(1).executeTakeFirst();
  if (quick) return { ...result, ms: performance.now() - started };
  const demo = generateDemo(now, goodsTarget);
  await ctx.db.kysely.transaction().execute(async (tx) => {
    if (ctx.db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(72057594037927)`.execute(tx);
    if (await tx.selectFrom('projects').select('id').limit(1).executeTakeFirst()) return;
    result = await insertDemo(tx, demo, now);
  });
  if (result.seeded) {
    invalidateSearchIndex(ctx as AppContext);
    invalidateGoodsLists(ctx as AppContext);
    invalidateProjectInfo(ctx as AppContext);
  }
  return { ...result, ms: Math.round(performance.now() - started) };
}

async function insertDemo(tx: Transaction<Database>, demo: DemoCatalog, now: number): Promise<SeedResult> {
  // ---- users (reuse existing demo phones; account ids and invite codes drawn until unique)
  const rng = mulberry32(7_654_321);
  const existing = await tx.selectFrom('users').select(['id', 'mobile']).where('mobile', 'in', demo.users.map((u) => u.mobile)).execute();
  const byMobile = new Map(existing.map((u) => [u.mobile, Number(u.id)]));
  const toCreate = demo.users.filter((u) => !byMobile.has(u.mobile));
  if (toCreate.length) {
    const draw = () => ({
      account: `1${Array.from({ length: 9 }, () => Math.floor(rng() * 10)).join('')}`,
      invite: Array.from({ length: 6 }, () => INVITE_ALPHABET[Math.floor(rng() * INVITE_ALPHABET.length)]).join(''),
    });
    let codes = toCreate.map(draw);
    for (let tries = 0; tries < 5; tries++) {
      const taken = await tx
        .selectFrom('users')
        .select(['account_id', 'invite_code'])
        .where((e) => e.or([e('account_id', 'in', codes.map((c) => c.account)), e('invite_code', 'in', codes.map((c) => c.invite))]))
        .execute();
      const seenA = new Set(taken.map((t) => t.account_id));
      const seenI = new Set(taken.map((t) => t.invite_code));
      let clash = false;
      codes = codes.map((c) => {
        const dup = seenA.has(c.account) || seenI.has(c.invite);
        seenA.add(c.account);
        seenI.add(c.invite);
        if (dup) clash = true;
        return dup ? draw() : c;
      });
      if (!clash) break;
    }
    const rows = toCreate.map((u, i) => ({
      account_id: codes[i]!.account,
      mobile: u.mobile,
      password_hash: null,
      nickname: u.nickname,
      profpic_id: u.profpicId,
      is_realname: 1,
      is_creator: u.isCreator ? 1 : 0,
      wallet_address: null,
      invite_code: codes[i]!.invite,
      invited_by: null,
      regist_channel: 'demo',
      created_at: now - 90 * 86_400_000,
    }));
    await insertBatches(tx, 'users', rows, 50);
    const created = await tx.selectFrom('users').select(['id', 'mobile']).where('mobile', 'in', toCreate.map((u) => u.mobile)).execute();
    for (const u of created) byMobile.set(u.mobile, Number(u.id));
  }
  const userId = (i: number) => byMobile.get(demo.users[i]!.mobile)!;
  await tx.updateTable('users').set({ is_creator: 1 }).where('id', 'in', demo.users.flatMap((u, i) => (u.isCreator ? [userId(i)] : []))).execute();

  // ---- creators and releases (few rows: one at a time, keeping their ids)
  const creatorIds: number[] = [];
  for (const c of demo.creators) {
    const row = await tx
      .insertInto('creators')
      .values({ user_id: userId(c.userIndex), name: c.name, avatar: c.avatar, banner: c.banner, intro: c.intro, media_links: c.mediaLinks, sort: c.sort, created_at: c.createdAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    creatorIds.push(Number(row.id));
  }
  const projectIds: number[] = [];
  for (const p of demo.projects) {
    const row = await tx
      .insertInto('projects')
      .values({
        creator_id: creatorIds[p.creatorIndex]!,
        name: p.name,
        cover: p.cover,
        category: p.category,
        description_html: p.descriptionHtml,
        supply: p.supply,
        sold: p.sold,
        price_fen: p.priceFen,
        sale_start_at: p.saleStartAt,
        sale_end_at: p.saleEndAt,
        contract_address: null,
        token_start: p.tokenStart,
        token_end: p.tokenEnd,
        holding_days: p.holdingDays,
        sort: p.sort,
        created_at: Math.min(now, p.saleStartAt) - 7 * 86_400_000,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    projectIds.push(Number(row.id));
  }

  // ---- collectibles, then their history (ids looked up by release and serial)
  const goodsRows = demo.goods.map((g) => ({
    project_id: projectIds[g.projectIndex]!,
    serial: g.serial,
    token_id: g.tokenId,
    contract: null,
    chain_status: 'pending',
    mint_tx_hash: null,
    minted_at: null,
    owner_user_id: userId(g.ownerIndex),
    name: g.name,
    image: g.image,
    attributes: g.attributes,
    status: g.status,
    sale_price_fen: g.salePriceFen,
    listed_at: g.listedAt,
    last_price_fen: g.lastPriceFen,
    acquired_at: g.acquiredAt,
    created_at: g.createdAt,
  }));
  // 17 columns: SQLite allows 32,766 parameters per statement, PostgreSQL 65,535.
  await insertBatches(tx, 'goods', goodsRows, 1000);
  const ids = await tx.selectFrom('goods').select(['id', 'project_id', 'serial']).where('project_id', 'in', projectIds).execute();
  const goodsId = new Map(ids.map((r) => [`${Number(r.project_id)}:${r.serial}`, Number(r.id)]));
  const idOf = (gi: number) => goodsId.get(`${projectIds[demo.goods[gi]!.projectIndex]}:${demo.goods[gi]!.serial}`)!;
  await insertBatches(
    tx,
    'goods_history_actions',
    demo.actions.map((a) => ({
      goods_id: idOf(a.goodsIndex),
      action: a.action,
      from_user_id: a.fromIndex === null ? null : userId(a.fromIndex),
      to_user_id: a.toIndex === null ? null : userId(a.toIndex),
      price_fen: a.priceFen,
      tx_hash: null,
      at: a.at,
    })),
    2000,
  );
  await insertBatches(tx, 'goods_price_history', demo.prices.map((p) => ({ goods_id: idOf(p.goodsIndex), price_fen: p.priceFen, at: p.at })), 5000);

  // ---- news (links to releases get their ids), banners, recommend lists
  const newsIds: number[] = [];
  for (const n of demo.news) {
    const html = sanitizeRichText(n.contentHtml.replace(/\{PROJECT_(\d+)\}/g, (_, i) => String(projectIds[Number(i)])));
    const row = await tx
      .insertInto('news')
      .values({
        title: n.title,
        cover: n.cover,
        summary: n.summary,
        content_html: html,
        category: n.category,
        author: n.author,
        is_hot: n.isHot ? 1 : 0,
        is_place: n.isPlace ? 1 : 0,
        place_sort: n.placeSort,
        views: 0,
        published_at: n.publishedAt,
        created_at: n.publishedAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    newsIds.push(Number(row.id));
  }
  const linkId = (type: string, index: number) => (type === 'project' ? projectIds[index] : type === 'news' ? newsIds[index] : type === 'creator' ? creatorIds[index] : idOf(index));
  await insertBatches(
    tx,
    'banners',
    demo.banners.map((b) => ({
      position: b.position,
      title: b.title,
      subtitle: b.subtitle,
      image: b.image,
      link_type: b.linkType,
      link_target: String(linkId(b.linkType, b.linkIndex)),
      sort: b.sort,
      active: 1,
      created_at: now,
    })),
    100,
  );
  for (const l of demo.recommends) {
    const row = await tx.insertInto('recommend_lists').values({ code: l.code, title: l.title, sort: l.sort }).returning('id').executeTakeFirstOrThrow();
    if (l.items.length) {
      await tx
        .insertInto('recommend_items')
        .values(l.items.map((it, i) => ({ list_id: Number(row.id), item_type: it.type, item_id: linkId(it.type, it.index)!, sort: i })))
        .execute();
    }
  }
  return { seeded: true, users: demo.users.length, projects: demo.projects.length, goods: demo.goods.length, news: demo.news.length, ms: 0 };
}
