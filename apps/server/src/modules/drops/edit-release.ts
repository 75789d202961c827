import { sql } from 'kysely';
import { Status } from '@cfx/contract/envelope.ts';
import type { MessageKey } from '@cfx/contract/messages.ts';
import { RELEASE_LIMITS } from '@cfx/contract/admin-catalog-rules.ts';
import type { ReleaseLocks } from '@cfx/contract/admin-catalog.ts';
import type { AppContext } from '../../context.ts';
import { lockKey, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { sanitizeRichText } from '../../util/rich-text.ts';
import { invalidateProjectInfo } from '../catalog/index.ts';
import { invalidateCatalogCache } from '../catalog/index.ts';
import { invalidateSearchIndex } from '../search/index.ts';
import { nextFreeTokenId } from './create-drop-release.ts';
import { forgetPhasePlans, loadPlan } from './phases.ts';
import { forgetDropReleases } from './release.ts';
import { dropStockSnapshot, ensureStock } from './stock.ts';

/**
 * Creating and editing a release (the console's release editor, docs/admin.md "Releases"; the
 * rules are in docs/drops.md "Editing a release"). Both run inside the caller's transaction (the
 * console writes its audit row in the same one) and keep `projects`, `drop_config` and `drop_stock`
 * in step: a new release gets its stock row and its settings row in the transaction that creates
 * it, and a supply change moves `projects.supply`, `drop_stock.supply` and the token range together
 * — the stock row last and conditionally (`taken <= supply`), like every stock move, so a
 * concurrent reservation can never be left above the new supply.
 *
 * What may change once the sale has started (a phase or the sale window began, or a unit was
 * taken) or once an order exists is in `releaseLocks`; `updateRelease` refuses anything else with
 * a message saying why. After the transaction commits, call `releaseChanged` so this process's
 * caches show the change at once (other processes: within their ≤ 1 s refresh).
 */
export interface ReleaseInput {
  name: string;
  creatorId: number;
  /** An image URL the caller has checked (an upload or a generated image). */
  cover: string;
  category: string;
  descriptionHtml: string;
  supply: number;
  priceFen: number;
  saleStartAt: number;
  saleEndAt: number | null;
  holdingDays: number;
  perIdentityLimit: number;
  maxPerOrder: number;
  commissionPermille: number;
  /** The creator royalty on resales, per mille (0–100); null = the platform default (ROYALTY_PERMILLE); undefined = unchanged / default. */
  royaltyPermille?: number | null;
}

export type ReleaseRole = 'release' | 'box' | 'box_items' | 'compose_result';

const invalid = (key: MessageKey, vars: Record<string, string | number> = {}) => new ApiError(Status.INVALID, key, vars);
/** Not possible in the release's current state (the console's 1073). */
const refused = (key: MessageKey, vars: Record<string, string | number> = {}) => new ApiError(Status.STAFF_STATE, key, vars);
const oneLine = (s: string) => !/[\r\n\u0000]/.test(s);
const L = RELEASE_LIMITS;

/** Checks the fields of the release form (ranges and formats; the state rules are in updateRelease). */
export function checkReleaseFields(f: Partial<ReleaseInput>): Partial<ReleaseInput> {
  const out: Partial<ReleaseInput> = { ...f };
  if (f.name !== undefined) {
    const name = f.name.trim();
    if (!name || [...name].length > L.nameMax || !oneLine(name)) throw invalid('releaseBadName', { n: L.nameMax });
    out.name = name;
  }
  if (f.category !== undefined) {
    const c = f.category.trim();
    if (!c || [...c].length > L.categoryMax || !oneLine(c)) throw invalid('releaseBadCategory', { n: L.categoryMax });
    out.category = c;
  }
  if (f.descriptionHtml !== undefined) {
    const html = sanitizeRichText(f.descriptionHtml);
    if (html.length > L.descriptionMax) throw invalid('releaseBadDescription', { n: L.descriptionMax });
    out.descriptionHtml = html;
  }
  if (f.supply !== undefined && (!Number.isSafeInteger(f.supply) || f.supply < 1 || f.supply > L.supplyMax)) throw invalid('releaseBadSupply', { max: L.supplyMax });
  if (f.priceFen !== undefined && (!Number.isSafeInteger(f.priceFen) || f.priceFen < 1 || f.priceFen > L.priceMaxFen)) throw invalid('releaseBadPrice', { max: L.priceMaxFen / 100 });
  if (f.holdingDays !== undefined && (f.holdingDays < 0 || f.holdingDays > L.holdingDaysMax)) throw invalid('releaseBadHolding', { max: L.holdingDaysMax });
  if (f.perIdentityLimit !== undefined && (f.perIdentityLimit < 1 || f.perIdentityLimit > L.perIdentityMax)) throw invalid('releaseBadLimits', { max: L.perIdentityMax });
  if (f.maxPerOrder !== undefined && (f.maxPerOrder < 1 || f.maxPerOrder > L.maxPerOrderMax)) throw invalid('releaseBadLimits', { max: L.maxPerOrderMax });
  if (f.commissionPermille !== undefined && (f.commissionPermille < 0 || f.commissionPermille > L.commissionMaxPermille)) throw invalid('releaseBadCommission');
  if (f.royaltyPermille !== undefined && f.royaltyPermille !== null && (!Number.isSafeInteger(f.royaltyPermille) || f.royaltyPermille < 0 || f.royaltyPermille > L.royaltyMaxPermille)) {
    throw invalid('releaseBadRoyalty');
  }
  return out;
}

/** A release may be created for (or moved to) an existing creator that staff have not disabled: 1404 / 1073 creatorDisabled. */
async function checkCreator(q: Q, id: number) {
  const c = await q.selectFrom('creators').select(['id', 'disabled_at']).where('id', '=', id).executeTakeFirst();
  if (!c) throw new ApiError(Status.NOT_FOUND_ITEM, 'creatorNotFound', {}, 404);
  if (c.disabled_at !== null && c.disabled_at !== undefined) throw refused('creatorDisabled');
}

async function writeSettings(q: Q, projectId: number, s: { perIdentityLimit: number; maxPerOrder: number; commissionPermille: number }, now: number) {
  await q
    .insertInto('drop_config')
    .values({ project_id: projectId, per_identity_limit: s.perIdentityLimit, max_per_order: s.maxPerOrder, primary_commission_permille: s.commissionPermille, updated_at: now })
    .onConflict((oc) => oc.column('project_id').doUpdateSet({ per_identity_limit: s.perIdentityLimit, max_per_order: s.maxPerOrder, primary_commission_permille: s.commissionPermille, updated_at: now }))
    .execute();
}

/**
 * A new release with a fresh token range after every range and token id in use (under the
 * `token-ranges` lock, like every range allocation), its stock row and its settings row — one
 * transaction (the caller's).
 */
export async function createRelease(ctx: AppContext, trx: Q, raw: ReleaseInput, now: number) {
  const f = checkReleaseFields(raw) as ReleaseInput;
  await checkCreator(trx, f.creatorId);
  if (f.saleEndAt !== null && f.saleEndAt <= f.saleStartAt) throw invalid('releaseBadWindow');
  if (f.maxPerOrder > f.perIdentityLimit) throw invalid('releaseMaxPerOrder');
  await lockKey(ctx, trx, 'token-ranges');
  const tokenStart = (await nextFreeTokenId(trx)) + 1;
  const tokenEnd = tokenStart + f.supply - 1;
  const p = await trx
    .insertInto('projects')
    .values({
      creator_id: f.creatorId,
      name: f.name,
      cover: f.cover,
      category: f.category,
      description_html: f.descriptionHtml,
      supply: f.supply,
      sold: 0,
      price_fen: f.priceFen,
      sale_start_at: f.saleStartAt,
      sale_end_at: f.saleEndAt,
      contract_address: ctx.chain?.collectible ?? null,
      token_start: tokenStart,
      token_end: tokenEnd,
      holding_days: f.holdingDays,
      sort: 0,
      created_at: now,
      royalty_permille: f.royaltyPermille ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const projectId = Number(p.id);
  await writeSettings(trx, projectId, f, now);
  await ensureStock(trx, projectId, now);
  return { projectId, tokenStart, tokenEnd };
}

export async function releaseRole(q: Q, projectId: number): Promise<ReleaseRole> {
  const [box, items, result] = await Promise.all([
    q.selectFrom('box_releases').select('project_id').where('project_id', '=', projectId).executeTakeFirst(),
    q.selectFrom('box_releases').select('project_id').where('item_project_id', '=', projectId).executeTakeFirst(),
    q.selectFrom('compose_rules').select('id').where('result_project_id', '=', projectId).executeTakeFirst(),
  ]);
  return box ? 'box' : items ? 'box_items' : result ? 'compose_result' : 'release';
}

/** The first token id in use after `tokenEnd` (by another release's range or a collectible); null when none. */
async function nextUsedAfter(q: Q, projectId: number, tokenEnd: number): Promise<number | null> {
  const a = await q.selectFrom('projects').select((e) => e.fn.min<number>('token_start').as('m')).where('token_start', '>', tokenEnd).where('id', '!=', projectId).executeTakeFirstOrThrow();
  const b = await q.selectFrom('goods').select((e) => e.fn.min<number>('token_id').as('m')).where('token_id', '>', tokenEnd).executeTakeFirstOrThrow();
  const xs = [a.m, b.m].filter((x) => x !== null && x !== undefined).map(Number);
  return xs.length ? Math.min(...xs) : null;
}

export interface ReleaseState {
  row: {
    id: number; name: string; creator_id: number; cover: string; category: string; description_html: string; supply: number; price_fen: number;
    sale_start_at: number; sale_end_at: number | null; holding_days: number; token_start: number | null; token_end: number | null;
    royalty_permille: number | null;
  };
  settings: { perIdentityLimit: number; maxPerOrder: number; commissionPermille: number };
  stock: { supply: number; taken: number; paid: number; nextSerial: number };
  orders: number;
  /** Resale orders (market or bid, any status) of the release's collectibles. */
  resales: number;
  goods: number;
  role: ReleaseRole;
  phases: { kind: string; startAt: number | null; endAt: number | null }[];
  lottery: { winners: number; winQuota: number } | null;
  locks: ReleaseLocks;
}

/** Everything the edit rules look at, and what they allow now (read in `q`, the edit's transaction). */
export async function releaseState(ctx: AppContext, q: Q, projectId: number, now: number): Promise<ReleaseState> {
  const p = await q
    .selectFrom('projects')
    .select(['id', 'name', 'creator_id', 'cover', 'category', 'description_html', 'supply', 'price_fen', 'sale_start_at', 'sale_end_at', 'holding_days', 'token_start', 'token_end', 'royalty_permille'])
    .where('id', '=', projectId)
    .executeTakeFirst();
  if (!p) throw new ApiError(Status.NOT_FOUND_ITEM, 'projectNotFound', {}, 404);
  await ensureStock(q, projectId, now);
  const [s, cfg, orders, goods, role, plan, resales] = await Promise.all([
    q.selectFrom('drop_stock').select(['supply', 'taken', 'paid', 'next_serial']).where('project_id', '=', projectId).executeTakeFirstOrThrow(),
    q.selectFrom('drop_config').selectAll().where('project_id', '=', projectId).executeTakeFirst(),
    q.selectFrom('orders').select((e) => e.fn.countAll<number>().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow(),
    q.selectFrom('goods').select((e) => e.fn.countAll<number>().as('n')).where('project_id', '=', projectId).executeTakeFirstOrThrow(),
    releaseRole(q, projectId),
    loadPlan(q, projectId),
    q
      .selectFrom('orders')
      .innerJoin('goods', 'goods.id', 'orders.goods_id')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('goods.project_id', '=', projectId)
      .where('orders.kind', 'in', ['market', 'bid'])
      .executeTakeFirstOrThrow(),
  ]);
  const d = ctx.config.drops;
  const per = cfg ? Number(cfg.per_identity_limit) : d.perIdentityLimit;
  const settings = {
    perIdentityLimit: per,
    maxPerOrder: Math.min(cfg ? Number(cfg.max_per_order) : d.maxPerOrder, per),
    commissionPermille: cfg?.primary_commission_permille ?? d.commissionPermille,
  };
  const stock = { supply: Number(s.supply), taken: Number(s.taken), paid: Number(s.paid), nextSerial: Number(s.next_serial) };
  const row = {
    ...p,
    id: Number(p.id), creator_id: Number(p.creator_id), supply: Number(p.supply), price_fen: Number(p.price_fen), sale_start_at: Number(p.sale_start_at),
    sale_end_at: p.sale_end_at === null ? null : Number(p.sale_end_at), holding_days: Number(p.holding_days),
    token_start: p.token_start === null ? null : Number(p.token_start), token_end: p.token_end === null ? null : Number(p.token_end),
    royalty_permille: p.royalty_permille === null ? null : Number(p.royalty_permille),
  };
  const nOrders = Number(orders.n);
  const nGoods = Number(goods.n);
  const firstPhase = plan.phases.find((x) => x.startAt !== null)?.startAt ?? null;
  const started = now >= row.sale_start_at || (firstPhase !== null && now >= firstPhase) || stock.taken > 0 || nGoods > 0;
  const sellable = role === 'release' || role === 'box';
  let supplyCanGrow = false;
  if (role === 'release' && row.token_end !== null) {
    const next = await nextUsedAfter(q, projectId, row.token_end);
    supplyCanGrow = next === null || next > row.token_end + 1 || (stock.taken === 0 && nGoods === 0);
  }
  const locks: ReleaseLocks = {
    started,
    hasOrders: nOrders > 0,
    priceLocked: nOrders > 0 || !sellable,
    royaltyLocked: Number(resales.n) > 0,
    creatorLocked: nOrders > 0 || nGoods > 0,
    startLocked: started,
    supplyMin: Math.max(1, stock.taken, stock.nextSerial - 1),
    supplyOnlyGrow: started,
    supplyCanGrow,
    supplyLocked: role !== 'release',
    holdingOnlyDown: started,
    phasesLocked: started || !sellable,
    boxLocked: started || (role !== 'release' && role !== 'box'),
  };
  return {
    row,
    settings,
    stock,
    orders: nOrders,
    resales: Number(resales.n),
    goods: nGoods,
    role,
    phases: plan.phases.map((x) => ({ kind: x.kind, startAt: x.startAt, endAt: x.endAt })),
    lottery: plan.lottery ? { winners: plan.lottery.winners, winQuota: plan.lottery.winQuota } : null,
    locks,
  };
}

/** Checks that a sale window contains every phase of a phased release (open-ended phases need an open window). */
export function windowHoldsPhases(start: number, end: number | null, phases: { startAt: number | null; endAt: number | null; kind: string }[]): boolean {
  for (const ph of phases) {
    if (ph.startAt !== null && ph.startAt < start) return false;
    if (end !== null) {
      if (ph.kind === 'lottery_rights') return false; // its end follows the draw: the window must stay open
      if (ph.endAt === null || ph.endAt > end) return false;
    }
  }
  return true;
}

/**
 * Edits a release: only the fields in `patch` that differ are changed, each by the rules below
 * (refused with 1073 and the reason when the release's state does not allow it, 1001 when the
 * value is out of range). Answers the fields changed with their before / after values.
 *
 *   name, cover, category, description    any time
 *   creator                               until an order or a collectible exists
 *   price, primary commission             until any order exists (an order carries its own price)
 *   royalty (0–10 %, null = default)      until the first resale order of one of its collectibles
 *   supply                                never below the units taken (nor serials handed out);
 *                                         once the sale started only up; a larger supply needs the
 *                                         token ids after the range to be free (grown in place) —
 *                                         before anything was taken the range moves to a fresh one;
 *                                         blind boxes / their items / compose results: not here;
 *                                         a lottery's winners × quota must still fit
 *   sale start                            until the sale starts
 *   sale end                              not in the past; a phased release's window must hold its
 *                                         phases and is fixed once the sale started
 *   holding days                          once the sale started only down (buyers were told)
 *   per-identity limit, max per order     any time (max per order ≤ limit)
 */
export async function updateRelease(ctx: AppContext, trx: Q, projectId: number, rawPatch: Partial<ReleaseInput>, now: number) {
  const patch = checkReleaseFields(rawPatch);
  const st = await releaseState(ctx, trx, projectId, now);
  const { row, locks } = st;
  const cur: ReleaseInput = {
    name: row.name, creatorId: row.creator_id, cover: row.cover, category: row.category, descriptionHtml: row.description_html, supply: row.supply,
    priceFen: row.price_fen, saleStartAt: row.sale_start_at, saleEndAt: row.sale_end_at, holdingDays: row.holding_days, ...st.settings,
    royaltyPermille: row.royalty_permille,
  };
  const next: ReleaseInput = { ...cur };
  const changed: (keyof ReleaseInput)[] = [];
  for (const k of Object.keys(patch) as (keyof ReleaseInput)[]) {
    const v = patch[k];
    if (v === undefined || v === cur[k]) continue;
    (next as unknown as Record<string, unknown>)[k] = v;
    changed.push(k);
  }
  const has = (k: keyof ReleaseInput) => changed.includes(k);

  if (has('creatorId')) {
    if (locks.creatorLocked) throw refused('releaseCreatorLocked');
    await checkCreator(trx, next.creatorId);
  }
  if ((has('priceFen') || has('commissionPermille')) && locks.priceLocked) throw refused('releasePriceLocked');
  if (has('royaltyPermille') && locks.royaltyLocked) throw refused('releaseRoyaltyLocked');
  if (has('saleStartAt') && locks.startLocked) throw refused('releaseStartLocked');
  if (has('saleStartAt') || has('saleEndAt')) {
    if (next.saleEndAt !== null && next.saleEndAt <= next.saleStartAt) throw invalid('releaseBadWindow');
    if (has('saleEndAt') && next.saleEndAt !== null && next.saleEndAt < now) throw invalid('releaseEndPast');
    if (st.phases.length) {
      if (locks.phasesLocked) throw refused('releasePhasedWindowLocked');
      if (!windowHoldsPhases(next.saleStartAt, next.saleEndAt, st.phases)) throw invalid('releaseWindowPhases');
    }
  }
  if (has('holdingDays') && locks.holdingOnlyDown && next.holdingDays > cur.holdingDays) throw refused('releaseHoldingOnlyDown');
  if ((has('maxPerOrder') || has('perIdentityLimit')) && next.maxPerOrder > next.perIdentityLimit) throw invalid('releaseMaxPerOrder');

  let tokenEnd = row.token_end;
  let tokenStart = row.token_start;
  if (has('supply')) {
    if (locks.supplyLocked) throw refused(st.role === 'box' ? 'releaseBoxSupply' : 'releaseSupplyLocked');
    if (next.supply < locks.supplyMin) throw refused('releaseSupplyBelowTaken', { n: locks.supplyMin });
    if (locks.supplyOnlyGrow && next.supply < cur.supply) throw refused('releaseSupplyOnlyGrow');
    if (st.lottery && st.lottery.winners * st.lottery.winQuota > next.supply) throw invalid('releaseSupplyLottery', { n: st.lottery.winners * st.lottery.winQuota });
    const rangeLen = tokenStart === null || tokenEnd === null ? 0 : tokenEnd - tokenStart + 1;
    if (next.supply > rangeLen) {
      await lockKey(ctx, trx, 'token-ranges');
      const after = tokenEnd === null ? null : await nextUsedAfter(trx, projectId, tokenEnd);
      if (tokenStart !== null && (after === null || after > tokenStart + next.supply - 1)) {
        tokenEnd = tokenStart + next.supply - 1; // grow in place: the ids after the range are free
      } else if (st.stock.taken === 0 && st.goods === 0) {
        tokenStart = (await nextFreeTokenId(trx)) + 1; // nothing handed out yet: move to a fresh range
        tokenEnd = tokenStart + next.supply - 1;
      } else {
        throw refused('releaseNoTokenRoom');
      }
    } else if (!locks.started && tokenStart !== null) {
      tokenEnd = tokenStart + next.supply - 1; // before the sale the range follows the supply down too
    }
  }

  if (!changed.length) return { changed, before: {}, after: {} };

  const projectSet: Record<string, unknown> = {};
  if (has('name')) projectSet.name = next.name;
  if (has('creatorId')) projectSet.creator_id = next.creatorId;
  if (has('cover')) projectSet.cover = next.cover;
  if (has('category')) projectSet.category = next.category;
  if (has('descriptionHtml')) projectSet.description_html = next.descriptionHtml;
  if (has('priceFen')) projectSet.price_fen = next.priceFen;
  if (has('saleStartAt')) projectSet.sale_start_at = next.saleStartAt;
  if (has('saleEndAt')) projectSet.sale_end_at = next.saleEndAt;
  if (has('holdingDays')) projectSet.holding_days = next.holdingDays;
  if (has('royaltyPermille')) projectSet.royalty_permille = next.royaltyPermille ?? null;
  if (has('supply')) Object.assign(projectSet, { supply: next.supply, token_start: tokenStart, token_end: tokenEnd });
  if (Object.keys(projectSet).length) await trx.updateTable('projects').set(projectSet).where('id', '=', projectId).execute();
  if (has('perIdentityLimit') || has('maxPerOrder') || has('commissionPermille')) await writeSettings(trx, projectId, next, now);
  if (has('supply')) {
    // The stock row last (docs/drops.md lock order), conditionally: a reservation that committed
    // since the state was read must still fit under the new supply.
    const res = await trx
      .updateTable('drop_stock')
      .set({ supply: next.supply, updated_at: now })
      .where('project_id', '=', projectId)
      .where('taken', '<=', next.supply)
      .where(sql<boolean>`next_serial - 1 <= ${next.supply}`)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw refused('releaseChangedMeanwhile');
  }
  const pick = (x: ReleaseInput) => {
    const o: Record<string, unknown> = {};
    for (const k of changed) o[k] = k === 'descriptionHtml' ? `${[...x.descriptionHtml].length} chars` : x[k];
    return o;
  };
  const after = pick(next);
  // (the audit summary drops keys that look secret, such as anything named token…)
  if (has('supply')) Object.assign(after, { range: `${tokenStart}-${tokenEnd}` });
  return { changed, before: pick(cur), after };
}

/**
 * After a release was created or changed (the transaction committed): this process's release
 * map, drop release cache, stock snapshot, phase plan, list cache and (for a new or renamed
 * release) search index show it at once; other processes within their ≤ 1 s refresh (the search
 * index's rebuild picks renames up within REBUILD_MS; new releases within a second).
 */
export function releaseChanged(ctx: AppContext, projectId: number, opts: { renamed?: boolean } = {}) {
  invalidateProjectInfo(ctx);
  forgetDropReleases(ctx);
  dropStockSnapshot(ctx, projectId);
  forgetPhasePlans(ctx, projectId);
  invalidateCatalogCache(ctx);
  if (opts.renamed) invalidateSearchIndex(ctx);
}
