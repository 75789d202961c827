import type { AppContext } from '../../context.ts';
import { warmTraders } from '../kyc/index.ts';

/**
 * The warm-up before a sale. A buyer's first trading call in a process looks up their session and
 * trading gate (one statement; kyc/require-trader.ts), and in a drop's first seconds nearly every
 * call is a buyer's first in that process: the lookups were half of PostgreSQL's statements in a
 * sale (bench/RESULTS.md). DROP_WARM_BEFORE_MS (10 s) before a release's sale or first phase starts,
 * each serving process loads the live sessions of the buyers last seen within DROP_WARM_SEEN_MS (an
 * hour), at most DROP_WARM_MAX (100,000, the most recent), with their gates, in one statement
 * (warmTraders). The caches stay exact (a change of sessions, users or real names empties them, as
 * before) and their entries live 60 s, so the warm-up covers a sale's first 50 s; later calls look
 * up as before. Checked every 2 s (two reads of small tables); at most one warm-up per DROP_WARM_BEFORE_MS
 * and process, which covers every start within it.
 */
export function startDropWarmup(ctx: AppContext, log: (msg: string, extra?: Record<string, unknown>) => void): { stop(): void } {
  const { beforeMs, seenMs, max } = ctx.config.drops.warm;
  if (beforeMs <= 0 || max <= 0) return { stop() {} };
  let lastWarm = -Infinity;
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const now = ctx.now();
      // One warm-up covers every start within the next DROP_WARM_BEFORE_MS (the caches keep it 60 s).
      if (now - lastWarm < beforeMs) return;
      const due = await startsWithin(ctx, now, now + beforeMs);
      if (!due.length) return;
      lastWarm = now;
      const t0 = performance.now();
      const sessions = await warmTraders(ctx, { seenSince: now - seenMs, max });
      log('drop warm-up: sessions and trading gates loaded', { releases: [...new Set(due.map((s) => s.projectId))], sessions, ms: Math.round(performance.now() - t0) });
    } catch (err) {
      log('drop warm-up failed (the calls look up as usual)', { err: String(err) });
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), 2_000);
  timer.unref();
  void tick();
  return { stop: () => clearInterval(timer) };
}

/** Sale and phase starts in (from, to]. */
async function startsWithin(ctx: AppContext, from: number, to: number): Promise<{ projectId: number; at: number }[]> {
  const k = ctx.db.kysely;
  const sales = await k.selectFrom('projects').select(['id', 'sale_start_at']).where('sale_start_at', '>', from).where('sale_start_at', '<=', to).execute();
  const phases = await k.selectFrom('drop_phases').select(['project_id', 'start_at']).where('start_at', '>', from).where('start_at', '<=', to).execute();
  return [...sales.map((r) => ({ projectId: Number(r.id), at: Number(r.sale_start_at) })), ...phases.map((r) => ({ projectId: Number(r.project_id), at: Number(r.start_at) }))];
}
