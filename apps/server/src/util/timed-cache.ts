/**
 * Values kept in memory for at most `maxAgeMs` of a clock (the cache clock, ctx.monotonicNow), read
 * through `load` on a miss — one load per key at a time: the callers that miss while it runs wait
 * for the same load instead of each sending its own query. (The drop's release, settings and phase
 * caches each loaded once per caller: at every expiry, every createOrder arriving during the load's
 * round trip sent the query again — ≈ 2,500 of a PostgreSQL sale's ≈ 25,000 client statements in
 * 9 s, bench/RESULTS.md.)
 *
 * An entry's age counts from the start of the load that read it. `forget` drops an entry (or all) and
 * the loads running for it: their values are not kept, and a caller after the forget loads anew, so
 * this process's own write is seen by every read that starts after it.
 */
export class TimedCache<K, V> {
  private readonly entries = new Map<K, { value: V; at: number }>();
  private readonly loading = new Map<K, Promise<V>>();
  private generation = 0;

  constructor(
    private readonly maxAgeMs: number,
    private readonly now: () => number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.at <= this.maxAgeMs) return Promise.resolve(hit.value);
    const running = this.loading.get(key);
    if (running) return running;
    const gen = this.generation;
    const at = this.now();
    const p = load().then(
      (value) => {
        if (gen === this.generation) {
          if (this.entries.size >= this.maxEntries) this.entries.clear();
          this.entries.set(key, { value, at });
        }
        return value;
      },
    );
    const settled = () => {
      if (this.loading.get(key) === p) this.loading.delete(key);
    };
    p.then(settled, settled);
    this.loading.set(key, p);
    return p;
  }

  /** Forgets one key (or all) and the loads running now: their results are not kept. */
  forget(key?: K) {
    this.generation++;
    if (key === undefined) {
      this.entries.clear();
      this.loading.clear();
    } else {
      this.entries.delete(key);
      this.loading.delete(key);
    }
  }
}
