// The primary sale's per-user / per-identity attempt windows (modules/drops/admission.ts) at a drop's first
// second: N distinct keys attempt within one second, then more attempts come in that same second. Prints the
// cost per attempt of countAttempt beside a baseline in the same run: a bare Map get + set of the same keys.
// Before the windows were swept at most once a second, every attempt above 50,000 live keys walked all of them.
// Run: cd bench && node --import tsx admission-windows.ts   (BENCH_KEYS=10000,50001,100000, BENCH_ATTEMPTS=20000)
import os from 'node:os';
import { attemptWindows, countAttempt } from '../apps/server/src/modules/drops/admission.ts';

const sizes = (process.env.BENCH_KEYS ?? '10000,50001,100000').split(',').map(Number);
const attempts = Number(process.env.BENCH_ATTEMPTS ?? 20_000);
const us = (ms: number) => ((ms / attempts) * 1000).toFixed(2);

for (let round = 0; round < 2; round++) {
  for (const n of sizes) {
    const ctx = { db: {}, monotonicNow: () => 1_000_000, config: { drops: { attemptsPerSecond: 1_000_000 } } } as unknown as Parameters<typeof countAttempt>[0];
    for (let i = 0; i < n; i++) countAttempt(ctx, i);
    const identities = Array.from({ length: 5000 }, (_, i) => `digest-${i}`);
    let t0 = performance.now();
    for (let i = 0; i < attempts; i++) countAttempt(ctx, identities[i % 5000]!);
    const windows = performance.now() - t0;
    const bare = new Map<string, { start: number; n: number }>();
    for (let i = 0; i < n; i++) bare.set(`user-${i}`, { start: 0, n: 1 });
    t0 = performance.now();
    for (let i = 0; i < attempts; i++) {
      const k = identities[i % 5000]!;
      const w = bare.get(k);
      if (w) w.n++;
      else bare.set(k, { start: 0, n: 1 });
    }
    const baseline = performance.now() - t0;
    const { sweeps } = attemptWindows(ctx);
    console.log(
      `round ${round + 1}: ${n} keys live in one second, ${attempts} more attempts: countAttempt ${us(windows)} µs each, bare Map ${us(baseline)} µs ` +
        `(${(windows / baseline).toFixed(1)}×), sweeps ${sweeps}; load ${os.loadavg()[0]!.toFixed(2)}`,
    );
  }
}
