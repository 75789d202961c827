import crypto from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { inTx, lockKey } from '../../db/tx.ts';
import { invalidateProjectInfo } from '../catalog/index.ts';
import { imageId, imageUrl } from '../content/index.ts';
import { forgetDropReleases } from '../drops/index.ts';
import { grantUnits, insertRelease, pickCreator } from './releases.ts';

export interface ComposeRuleInput {
  name: string;
  description?: string;
  /** Burn `count` collectibles of each release. */
  ingredients: { projectId: number; count: number }[];
  /** How many results there are (the result release's supply). */
  maxTimes: number;
  resultName?: string;
  resultImage?: string;
  resultAttributes?: { trait: string; value: string }[];
  startAt?: number;
  endAt?: number | null;
  holdingDays?: number;
  /** The result release's creator (default: an existing creator other than the caller). */
  creatorId?: number;
}

/**
 * A compose rule (recipe) and the release of its results (staff tooling; the DEV_MODE route and the
 * tests call it). The result release has `maxTimes` token ids; result serial s is minted as token
 * `token_start + s − 1` by the compose that reserved it.
 */
export async function createComposeRule(ctx: AppContext, callerUserId: number | null, input: ComposeRuleInput) {
  if (!input.ingredients.length || input.ingredients.some((i) => !Number.isSafeInteger(i.count) || i.count < 1)) throw new Error('a compose rule needs ingredients with counts ≥ 1');
  if (new Set(input.ingredients.map((i) => i.projectId)).size !== input.ingredients.length) throw new Error('each ingredient release once');
  const now = ctx.now();
  const out = await inTx(ctx, async (trx) => {
    await lockKey(ctx, trx, 'token-ranges');
    const creatorId = input.creatorId ?? (await pickCreator(trx, callerUserId, now));
    const resultName = input.resultName ?? `${input.name} · 合成品`;
    const result = await insertRelease(ctx, trx, {
      creatorId,
      name: resultName,
      description: '<p>由碎片合成所得的藏品。</p>',
      supply: input.maxTimes,
      priceFen: 0,
      saleStartAt: input.startAt ?? now,
      holdingDays: input.holdingDays ?? 0,
      notForSale: true,
    }, now);
    const row = await trx
      .insertInto('compose_rules')
      .values({
        name: input.name,
        description: input.description ?? '',
        result_project_id: result.projectId,
        result_name: resultName,
        result_image: input.resultImage ?? imageUrl(imageId('g', result.seed % 8, result.seed, 3)),
        result_attributes: JSON.stringify(input.resultAttributes ?? [{ trait: '来源', value: '碎片合成' }]),
        ingredients: JSON.stringify(input.ingredients.map((i) => ({ projectId: i.projectId, count: i.count }))),
        start_at: input.startAt ?? now - 60_000,
        end_at: input.endAt ?? null,
        max_times: input.maxTimes,
        used_times: 0,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { ruleId: Number(row.id), resultProjectId: result.projectId };
  });
  invalidateProjectInfo(ctx);
  forgetDropReleases(ctx);
  return out;
}

/**
 * DEV_MODE: fragment releases (sold out to the caller), `grant` fragments of each given to the caller
 * (minted by the mint job), and a rule taking `count` of each.
 */
export async function createDevComposeRule(ctx: AppContext, userId: number, input: { ingredients?: number | null; count?: number | null; grant?: number | null; maxTimes?: number | null }) {
  const n = input.ingredients ?? 1;
  const count = input.count ?? 3;
  const grant = input.grant ?? count;
  const now = ctx.now();
  const tag = crypto.randomInt(1000, 10_000);
  const made = await inTx(ctx, async (trx) => {
    await lockKey(ctx, trx, 'token-ranges');
    const creatorId = await pickCreator(trx, userId, now);
    const projects: number[] = [];
    const goods: { goodsId: number; tokenId: string }[] = [];
    for (let i = 0; i < n; i++) {
      const names = ['星辰', '月影', '云岚'];
      const r = await insertRelease(ctx, trx, { creatorId, name: `${names[i]}碎片 ${tag}`, description: '<p>可用于合成的碎片。</p>', supply: Math.max(grant, count) * 10, priceFen: 100, saleStartAt: now - 60_000 }, now);
      projects.push(r.projectId);
      goods.push(...(await grantUnits(trx, ctx, r.projectId, userId, grant, now)));
    }
    return { projects, goods };
  });
  const rule = await createComposeRule(ctx, userId, {
    name: `碎片合成 ${tag}`,
    description: `集齐${n > 1 ? '每种' : ''}${count}枚碎片，合成一件限量藏品。`,
    ingredients: made.projects.map((projectId) => ({ projectId, count })),
    maxTimes: input.maxTimes ?? 10,
  });
  return { ruleId: rule.ruleId, fragmentProjectIds: made.projects, resultProjectId: rule.resultProjectId, goods: made.goods };
}
