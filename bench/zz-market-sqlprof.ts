// Diagnostic (not a benchmark): time spent per SQL statement during the settlement bench.
import Database from 'better-sqlite3';
const stats = new Map<string, { n: number; ms: number }>();
let on = false;
const proto = (Database as any).prototype;
const origPrepare = proto.prepare;
proto.prepare = function (sql: string) {
  const st = origPrepare.call(this, sql);
  for (const m of ['run', 'all', 'get'] as const) {
    const f = st[m].bind(st);
    st[m] = (...a: unknown[]) => {
      if (!on) return f(...a);
      const t = performance.now();
      try { return f(...a); } finally {
        const k = sql.replace(/\s+/g, ' ').slice(0, 140);
        const s = stats.get(k) ?? { n: 0, ms: 0 };
        s.n++; s.ms += performance.now() - t; stats.set(k, s);
      }
    };
  }
  return st;
};
(globalThis as any).__sqlprof = { start: () => { on = true; }, dump: () => {
  const rows = [...stats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 30);
  for (const [k, v] of rows) console.log(v.ms.toFixed(0).padStart(7), String(v.n).padStart(7), (v.ms * 1000 / v.n).toFixed(0).padStart(6) + 'us', k);
} };
await import('./settlement.ts');
