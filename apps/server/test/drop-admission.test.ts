import { describe, expect, it } from 'vitest';
import { attemptWindows, countAttempt, DropBusy } from '../src/modules/drops/admission.ts';

/**
 * The per-key attempt windows of the primary sale (DROP_ATTEMPTS_PER_SECOND), in memory per process: the budget
 * holds per key and window, and the ended windows are forgotten at most once a second — when more keys than the
 * map keeps attempted within one second (a drop's first second), no attempt pays for a walk over all of them.
 */
function fakeCtx(attemptsPerSecond = 3) {
  const clock = { t: 1_000_000 };
  const ctx = { db: {}, monotonicNow: () => clock.t, config: { drops: { attemptsPerSecond } } } as unknown as Parameters<typeof countAttempt>[0];
  return { ctx, clock };
}

describe('drop attempt windows', () => {
  it('a key gets its budget per one-second window; another key is not touched by it', () => {
    const { ctx, clock } = fakeCtx(3);
    for (let i = 0; i < 3; i++) countAttempt(ctx, 1);
    expect(() => countAttempt(ctx, 1)).toThrow(DropBusy);
    countAttempt(ctx, 2);
    // A user id and an identity are separate keys, whatever their text.
    for (let i = 0; i < 3; i++) countAttempt(ctx, '1');
    clock.t += 999;
    expect(() => countAttempt(ctx, 1)).toThrow(DropBusy);
    clock.t += 1;
    countAttempt(ctx, 1); // a new window
  });

  it('more fresh keys than the map keeps: one sweep per second, not one per attempt; then the ended windows go', () => {
    const { ctx, clock } = fakeCtx(3);
    for (let i = 0; i < 50_001; i++) countAttempt(ctx, i);
    expect(attemptWindows(ctx)).toEqual({ keys: 50_001, sweeps: 0 });
    // Within the same second every key is still live: the first attempt above the bound sweeps (and frees
    // nothing), the next 20,000 do not sweep again.
    for (let i = 0; i < 20_000; i++) countAttempt(ctx, `digest-${i}`);
    expect(attemptWindows(ctx)).toEqual({ keys: 70_001, sweeps: 1 });
    // A second later the windows of the first burst have ended: the next attempt forgets them.
    clock.t += 1000;
    countAttempt(ctx, 'late');
    expect(attemptWindows(ctx)).toEqual({ keys: 1, sweeps: 2 });
  });
});
