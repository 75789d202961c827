/**
 * A fixed-window counter per client IP, in memory (one server process): `take(ip)` answers whether
 * this request is within `limit` per `windowMs`, and if not, in how many seconds the window resets.
 * Used for the public, unauthenticated block lookups of the proof pages. Old windows are dropped
 * as the map grows, so a flood of addresses cannot grow it without bound.
 */
export class IpRateLimit {
  private readonly windows = new Map<string, { start: number; n: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
    private readonly maxKeys = 50_000,
  ) {}

  take(ip: string): { ok: true } | { ok: false; retryAfterS: number } {
    const t = this.now();
    let w = this.windows.get(ip);
    if (!w || t - w.start >= this.windowMs) {
      if (!w && this.windows.size >= this.maxKeys) this.prune(t);
      w = { start: t, n: 0 };
      this.windows.set(ip, w);
    }
    if (w.n >= this.limit) return { ok: false, retryAfterS: Math.max(1, Math.ceil((w.start + this.windowMs - t) / 1000)) };
    w.n++;
    return { ok: true };
  }

  private prune(t: number) {
    for (const [k, w] of this.windows) if (t - w.start >= this.windowMs) this.windows.delete(k);
    // Still full (every window current): forget the oldest half rather than grow.
    if (this.windows.size >= this.maxKeys) {
      let drop = Math.ceil(this.windows.size / 2);
      for (const k of this.windows.keys()) {
        if (drop-- <= 0) break;
        this.windows.delete(k);
      }
    }
  }
}
