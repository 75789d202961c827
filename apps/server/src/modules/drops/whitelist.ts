import type { MessageKey } from '@cfx/contract/messages.ts';
import type { WhitelistStatus } from '@cfx/contract/drop-phases.ts';
import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { inTx, type Q } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { parseCsv } from '../../util/csv.ts';
import { notFound } from '../catalog/index.ts';
import { phaseQuotaTaken } from './phase-quota.ts';
import { loadPlan, phasePlan, phaseViews, timeline } from './phases.ts';
import { dropRelease } from './release.ts';

/**
 * The whitelist of a release (docs/drops.md "Whitelist"): entries by user with a quota. An entry
 * counts for the user's real-name identity — resolved at purchase time through `realname`, so an
 * entry for a user who verifies later works from then on — and the identity's quota is the largest
 * entry among its accounts (listing two accounts of one person does not add up). Units are taken
 * in the 'whitelist' bucket of drop_phase_quota, shared by every account of the identity.
 */
export const WHITELIST_MAX_QUOTA = 10_000;

/** The whitelist quota of a real-name identity for a release (0 = not whitelisted). */
export async function whitelistQuota(q: Q, projectId: number, identity: string): Promise<number> {
  const row = await q
    .selectFrom('drop_whitelist')
    .innerJoin('realname', 'realname.user_id', 'drop_whitelist.user_id')
    .select((e) => e.fn.max<number>('drop_whitelist.quota').as('q'))
    .where('drop_whitelist.project_id', '=', projectId)
    .where('realname.id_digest', '=', identity)
    .executeTakeFirst();
  return Number(row?.q ?? 0);
}

/** The entry of one account (before it has a real name). */
async function accountQuota(q: Q, projectId: number, userId: number): Promise<number> {
  const row = await q.selectFrom('drop_whitelist').select('quota').where('project_id', '=', projectId).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.quota ?? 0);
}

/** What a user's whitelist standing is (identity when verified, else the account's own entry). */
export async function myWhitelist(ctx: AppContext, userId: number, projectId: number) {
  const q = ctx.db.kysely;
  const id = await q.selectFrom('realname').select('id_digest').where('user_id', '=', userId).executeTakeFirst();
  const quota = id ? await whitelistQuota(q, projectId, id.id_digest) : await accountQuota(q, projectId, userId);
  const used = id ? await phaseQuotaTaken(q, projectId, 'whitelist', id.id_digest) : 0;
  return { verified: !!id, identity: id?.id_digest ?? null, quota, used, remaining: Math.max(0, quota - used) };
}

/** POST /api/user/mint/v1/whitelist {projectId}. */
export async function whitelistStatus(ctx: AppContext, userId: number, projectId: number): Promise<WhitelistStatus> {
  if (!(await dropRelease(ctx, projectId))) throw notFound('projectNotFound');
  const [mine, plan] = await Promise.all([myWhitelist(ctx, userId, projectId), phasePlan(ctx, projectId)]);
  const now = ctx.now();
  return {
    projectId,
    whitelisted: mine.quota > 0,
    quota: mine.quota,
    used: mine.used,
    remaining: mine.remaining,
    verified: mine.verified,
    phases: phaseViews(timeline(plan), now),
    serverTime: now,
  };
}

export interface WhitelistLineError {
  line: number;
  key: MessageKey;
  vars: Record<string, string | number>;
}
export interface WhitelistImport {
  ok: boolean;
  /** Entries in the file (lines with an entry). */
  entries: number;
  added: number;
  updated: number;
  unchanged: number;
  /** Entries of the release not in the file, deleted (replace mode only). */
  removed: number;
  errors: WhitelistLineError[];
}

const HEADER = /^(mobile|accountid|account_id)\s*,\s*quota$/i;

/**
 * A release whose lottery comes after whitelist / free-claim phases: the whitelist's quotas after this
 * import plus the lottery's winners × quota must still fit the supply (the rule of phases.ts lotteryFitProblem),
 * else 1001 whitelistOverLottery and nothing is written.
 */
async function checkLotteryFit(q: Q, projectId: number, resolved: Map<number, { quota: number }>, replace: boolean) {
  const plan = await loadPlan(q, projectId);
  const signup = plan.phases.findIndex((x) => x.kind === 'lottery_signup');
  if (!plan.lottery || !plan.phases.slice(0, Math.max(0, signup)).some((x) => x.quotaSource === 'whitelist')) return;
  const merged = new Map<number, number>();
  if (!replace) for (const e of await q.selectFrom('drop_whitelist').select(['user_id', 'quota']).where('project_id', '=', projectId).execute()) merged.set(Number(e.user_id), Number(e.quota));
  for (const [userId, r] of resolved) merged.set(userId, r.quota);
  const total = [...merged.values()].reduce((a, b) => a + b, 0);
  const p = await q.selectFrom('projects').select('supply').where('id', '=', projectId).executeTakeFirstOrThrow();
  const lottery = plan.lottery.winners * plan.lottery.winQuota;
  if (total + lottery > Number(p.supply)) throw new ApiError(Status.INVALID, 'whitelistOverLottery', { total, lottery, supply: Number(p.supply) });
}

/**
 * Imports a whitelist CSV for a release: one `mobile,quota` or `accountId,quota` per line (an
 * optional header line `mobile,quota` / `accountId,quota` fixes the key; without it an 11-digit key
 * is a phone number, anything else an account id). The file is read as CSV (util/csv.ts, RFC 4180:
 * quoted cells as Excel writes them, CRLF, a BOM; empty cells after the second are ignored). Blank
 * lines and lines starting with # are skipped. Every line is checked first and every bad line is reported with its number; only a file
 * without errors is written, in ONE transaction (never half an import). Importing again updates the
 * quotas (idempotent); with `replace` entries missing from the file are deleted too. `dryRun`
 * checks the file and counts what an import would do without writing (the console's check).
 * Called by the console (modules/admin/catalog) and tools/import-whitelist.ts.
 */
export async function importWhitelist(ctx: Pick<AppContext, 'db'>, projectId: number, text: string, opts: { now: number; replace?: boolean; dryRun?: boolean }): Promise<WhitelistImport> {
  const q = ctx.db.kysely;
  const project = await q.selectFrom('projects').select('id').where('id', '=', projectId).executeTakeFirst();
  if (!project) throw new ApiError(Status.NOT_FOUND_ITEM, 'projectNotFound', {}, 404);
  const errors: WhitelistLineError[] = [];
  const rows: { line: number; by: 'mobile' | 'account'; key: string; quota: number }[] = [];
  let forced: 'mobile' | 'account' | null = null;
  let sawContent = false;
  for (const record of parseCsv(text, { comment: '#' })) {
    const line = record.line;
    // A sheet wider than two columns leaves empty cells at the end of each row.
    const cells = [...record.cells];
    while (cells.length && cells[cells.length - 1] === '') cells.pop();
    if (!record.bad && cells.length === 0) continue;
    if (!sawContent) {
      sawContent = true;
      const h = cells.length === 2 && !record.bad ? HEADER.exec(cells.map((c) => c.replace(/\s+/g, '')).join(',')) : null;
      if (h) {
        forced = h[1]!.toLowerCase() === 'mobile' ? 'mobile' : 'account';
        continue;
      }
    }
    const [key = '', quotaText = ''] = cells.map((c) => c.trim());
    if (record.bad || cells.length !== 2 || !/^\d{4,20}$/.test(key)) {
      errors.push({ line, key: 'whitelistBadLine', vars: { line } });
      continue;
    }
    const quota = /^\d{1,6}$/.test(quotaText) ? Number(quotaText) : NaN;
    if (!Number.isInteger(quota) || quota < 1 || quota > WHITELIST_MAX_QUOTA) {
      errors.push({ line, key: 'whitelistBadQuota', vars: { line, max: WHITELIST_MAX_QUOTA } });
      continue;
    }
    const by = forced ?? (/^1\d{10}$/.test(key) ? 'mobile' : 'account');
    rows.push({ line, by, key, quota });
  }

  // Resolve users in chunks (SQLite's parameter limit).
  const byMobile = new Map<string, number>();
  const byAccount = new Map<string, number>();
  const chunks = <T>(a: T[]) => Array.from({ length: Math.ceil(a.length / 500) }, (_, i) => a.slice(i * 500, i * 500 + 500));
  for (const part of chunks([...new Set(rows.filter((r) => r.by === 'mobile').map((r) => r.key))])) {
    for (const u of await q.selectFrom('users').select(['id', 'mobile']).where('mobile', 'in', part).where('cancelled_at', 'is', null).execute()) byMobile.set(u.mobile, Number(u.id));
  }
  for (const part of chunks([...new Set(rows.filter((r) => r.by === 'account').map((r) => r.key))])) {
    for (const u of await q.selectFrom('users').select(['id', 'account_id']).where('account_id', 'in', part).where('cancelled_at', 'is', null).execute()) byAccount.set(u.account_id, Number(u.id));
  }
  const resolved = new Map<number, { line: number; quota: number }>();
  for (const r of rows) {
    const userId = (r.by === 'mobile' ? byMobile : byAccount).get(r.key);
    if (userId === undefined) {
      errors.push({ line: r.line, key: 'whitelistUnknownUser', vars: { line: r.line } });
      continue;
    }
    const first = resolved.get(userId);
    if (first) {
      errors.push({ line: r.line, key: 'whitelistDuplicate', vars: { line: r.line, first: first.line } });
      continue;
    }
    resolved.set(userId, { line: r.line, quota: r.quota });
  }
  errors.sort((a, b) => a.line - b.line);
  const report: WhitelistImport = { ok: errors.length === 0, entries: rows.length, added: 0, updated: 0, unchanged: 0, removed: 0, errors };
  if (errors.length) return report;
  await checkLotteryFit(q, projectId, resolved, Boolean(opts.replace));
  if (opts.dryRun) {
    // A check (the console shows it before importing): what an import now would do, nothing written.
    const existing = new Map<number, number>();
    for (const e of await q.selectFrom('drop_whitelist').select(['user_id', 'quota']).where('project_id', '=', projectId).execute()) existing.set(Number(e.user_id), Number(e.quota));
    for (const [userId, r] of resolved) {
      const had = existing.get(userId);
      if (had === undefined) report.added++;
      else if (had !== r.quota) report.updated++;
      else report.unchanged++;
    }
    if (opts.replace) report.removed = [...existing.keys()].filter((u) => !resolved.has(u)).length;
    return report;
  }

  await inTx(ctx, async (trx) => {
    const existing = new Map<number, number>();
    for (const e of await trx.selectFrom('drop_whitelist').select(['user_id', 'quota']).where('project_id', '=', projectId).execute()) existing.set(Number(e.user_id), Number(e.quota));
    const upserts = [];
    for (const [userId, r] of resolved) {
      const had = existing.get(userId);
      if (had === undefined) report.added++;
      else if (had !== r.quota) report.updated++;
      else {
        report.unchanged++;
        continue;
      }
      upserts.push({ project_id: projectId, user_id: userId, quota: r.quota, created_at: opts.now, updated_at: opts.now });
    }
    for (const part of chunks(upserts)) {
      await trx
        .insertInto('drop_whitelist')
        .values(part)
        .onConflict((oc) => oc.columns(['project_id', 'user_id']).doUpdateSet((eb) => ({ quota: eb.ref('excluded.quota'), updated_at: opts.now })))
        .execute();
    }
    if (opts.replace) {
      const gone = [...existing.keys()].filter((u) => !resolved.has(u));
      for (const part of chunks(gone)) await trx.deleteFrom('drop_whitelist').where('project_id', '=', projectId).where('user_id', 'in', part).execute();
      report.removed = gone.length;
    }
    // The transaction's result is the report (an audited caller's hook reads it before the commit).
    return report;
  });
  return report;
}
