import { sql } from 'kysely';
import { Status } from '@cfx/contract/envelope.ts';
import { COMPOSE_LIMITS } from '@cfx/contract/admin-catalog-rules.ts';
import type { AppContext } from '../../context.ts';
import { inTx, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { releaseChanged } from '../drops/index.ts';
import { createComposeRule } from './create-compose-rule.ts';
import { loadRule } from './rules.ts';

/**
 * Creating and editing compose rules (recipes) from the console (docs/admin.md "Compose recipes").
 * A new rule goes through createComposeRule (its result release, sold out, `maxTimes` token ids).
 * An edit, in one transaction:
 *   - name, description, the window: any time (end after start);
 *   - ingredients, result name and image: only while the rule has no compose record at all (a
 *     selection or a composed result was made under them);
 *   - max times: never below the results reserved (`used_times`, conditional UPDATE, so a confirm
 *     racing the edit is accounted for) and never above the result release's token ids (its supply).
 */
export interface ComposeRuleSetting {
  name: string;
  description?: string | null;
  ingredients: { projectId: number; count: number }[];
  maxTimes: number;
  startAt: number;
  endAt: number | null;
  resultName?: string | null;
  /** An image URL the caller has checked; omitted: a generated one. */
  resultImage?: string | null;
}

const invalid = (reason: 'name' | 'description' | 'ingredients' | 'count' | 'window' | 'maxTimes', vars: Record<string, number | string> = {}) =>
  new ApiError(Status.INVALID, `composeBad_${reason}`, vars);
const oneLine = (s: string) => !/[\r\n\u0000]/.test(s);

async function checkSetting(q: Q, s: ComposeRuleSetting, resultProjectId: number | null) {
  const name = s.name.trim();
  if (!name || [...name].length > COMPOSE_LIMITS.nameMax || !oneLine(name)) throw invalid('name', { n: COMPOSE_LIMITS.nameMax });
  const description = (s.description ?? '').trim();
  if ([...description].length > COMPOSE_LIMITS.descriptionMax) throw invalid('description', { n: COMPOSE_LIMITS.descriptionMax });
  const ids = s.ingredients.map((i) => i.projectId);
  if (!s.ingredients.length || s.ingredients.length > COMPOSE_LIMITS.ingredientsMax || new Set(ids).size !== ids.length || (resultProjectId !== null && ids.includes(resultProjectId))) {
    throw invalid('ingredients', { n: COMPOSE_LIMITS.ingredientsMax });
  }
  for (const i of s.ingredients) if (!Number.isSafeInteger(i.count) || i.count < 1 || i.count > COMPOSE_LIMITS.countMax) throw invalid('count', { n: COMPOSE_LIMITS.countMax });
  const found = await q.selectFrom('projects').select('id').where('id', 'in', ids).execute();
  if (found.length !== ids.length) throw new ApiError(Status.NOT_FOUND_ITEM, 'projectNotFound', {}, 404);
  if (s.endAt !== null && s.endAt <= s.startAt) throw invalid('window');
  if (!Number.isSafeInteger(s.maxTimes) || s.maxTimes < 1 || s.maxTimes > COMPOSE_LIMITS.maxTimesMax) throw invalid('maxTimes', { n: COMPOSE_LIMITS.maxTimesMax });
  const resultName = (s.resultName ?? '').trim();
  if ([...resultName].length > COMPOSE_LIMITS.nameMax || !oneLine(resultName)) throw invalid('name', { n: COMPOSE_LIMITS.nameMax });
  return { name, description, resultName: resultName || null };
}

/** A new rule (through createComposeRule): its result release belongs to the first ingredient's creator. */
export async function createRuleFromConsole(ctx: AppContext, s: ComposeRuleSetting) {
  const c = await checkSetting(ctx.db.kysely, s, null);
  const first = await ctx.db.kysely.selectFrom('projects').select('creator_id').where('id', '=', s.ingredients[0]!.projectId).executeTakeFirstOrThrow();
  const made = await createComposeRule(ctx, null, {
    name: c.name,
    description: c.description,
    ingredients: s.ingredients,
    maxTimes: s.maxTimes,
    startAt: s.startAt,
    endAt: s.endAt,
    ...(c.resultName ? { resultName: c.resultName } : {}),
    ...(s.resultImage ? { resultImage: s.resultImage } : {}),
    creatorId: Number(first.creator_id),
  });
  return { ruleId: made.ruleId, resultProjectId: made.resultProjectId };
}

/** Edits a rule (see above). Answers the fields changed with their before / after values. */
export async function updateComposeRule(ctx: AppContext, ruleId: number, s: ComposeRuleSetting) {
  const out = await inTx(ctx, async (trx) => {
    const r = await loadRule(trx, ruleId);
    if (!r) throw new ApiError(Status.NOT_FOUND_ITEM, 'composeRuleNotFound', {}, 404);
    const c = await checkSetting(trx, s, r.resultProjectId);
    const [records, result] = await Promise.all([
      trx.selectFrom('compose_records').select((e) => e.fn.countAll<number>().as('n')).where('rule_id', '=', ruleId).executeTakeFirstOrThrow(),
      trx.selectFrom('projects').select(['supply', 'name']).where('id', '=', r.resultProjectId).executeTakeFirstOrThrow(),
    ]);
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    const set: Record<string, unknown> = {};
    const note = (k: string, b: unknown, a: unknown, col: string, v: unknown = a) => {
      if (JSON.stringify(b) === JSON.stringify(a)) return;
      before[k] = b;
      after[k] = a;
      set[col] = v;
    };
    note('name', r.name, c.name, 'name');
    note('description', r.description, c.description, 'description');
    note('startAt', r.startAt, s.startAt, 'start_at');
    note('endAt', r.endAt, s.endAt, 'end_at');
    const ingredients = s.ingredients.map((i) => ({ projectId: i.projectId, count: i.count }));
    const frozen = Number(records.n) > 0;
    const wantsName = c.resultName ?? r.resultName;
    const wantsImage = s.resultImage ?? r.resultImage;
    if (frozen && (JSON.stringify(ingredients) !== JSON.stringify(r.ingredients) || wantsName !== r.resultName || wantsImage !== r.resultImage)) {
      throw new ApiError(Status.STAFF_STATE, 'composeFrozen');
    }
    note('ingredients', r.ingredients, ingredients, 'ingredients', JSON.stringify(ingredients));
    note('resultName', r.resultName, wantsName, 'result_name');
    note('resultImage', r.resultImage, wantsImage, 'result_image');
    if (s.maxTimes !== r.maxTimes) {
      if (s.maxTimes > Number(result.supply)) throw new ApiError(Status.STAFF_STATE, 'composeMaxAboveSupply', { n: Number(result.supply) });
      note('maxTimes', r.maxTimes, s.maxTimes, 'max_times');
    }
    if (!Object.keys(set).length) return { ruleId, resultProjectId: r.resultProjectId, before, after };
    const res = await trx
      .updateTable('compose_rules')
      .set(set)
      .where('id', '=', ruleId)
      .where(sql<boolean>`used_times <= ${s.maxTimes}`)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) {
      const used = await trx.selectFrom('compose_rules').select('used_times').where('id', '=', ruleId).executeTakeFirstOrThrow();
      throw new ApiError(Status.STAFF_STATE, 'composeMaxBelowUsed', { n: Number(used.used_times) });
    }
    return { ruleId, resultProjectId: r.resultProjectId, before, after };
  });
  releaseChanged(ctx, out.resultProjectId);
  return out;
}
