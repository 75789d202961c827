import { describe, expect, it } from 'vitest';
import { TimedCache } from '../src/util/timed-cache.ts';

/** A load the test finishes by hand, counting how many were started. */
function loads() {
  const pending: ((v: string) => void)[] = [];
  let started = 0;
  return {
    load: (v?: string) => () => {
      started++;
      return v === undefined ? new Promise<string>((resolve) => pending.push(resolve)) : Promise.resolve(v);
    },
    finish: (v: string) => pending.shift()!(v),
    get started() {
      return started;
    },
  };
}

describe('TimedCache', () => {
  it('callers that miss while a load runs share it: one query, one value', async () => {
    let t = 0;
    const c = new TimedCache<number, string>(1000, () => t);
    const l = loads();
    const got = [c.get(1, l.load()), c.get(1, l.load()), c.get(1, l.load())];
    expect(l.started).toBe(1);
    l.finish('a');
    expect(await Promise.all(got)).toEqual(['a', 'a', 'a']);
    // Fresh up to its age (counted from the load's start), then read again.
    t = 1000;
    expect(await c.get(1, l.load('b'))).toBe('a');
    t = 1001;
    expect(await c.get(1, l.load('b'))).toBe('b');
    expect(l.started).toBe(2);
    // Another key loads on its own.
    expect(await c.get(2, l.load('x'))).toBe('x');
    expect(l.started).toBe(3);
  });

  it('a forget drops the entry and the load running for it: a caller after it loads anew, the old result is not kept', async () => {
    const t = 0;
    const c = new TimedCache<number, string>(1000, () => t);
    const l = loads();
    const before = c.get(1, l.load());
    c.forget(1);
    const after = c.get(1, l.load());
    expect(l.started).toBe(2);
    l.finish('old');
    l.finish('new');
    expect(await before).toBe('old');
    expect(await after).toBe('new');
    expect(await c.get(1, l.load('again'))).toBe('new');
    // Forget all.
    c.forget();
    expect(await c.get(1, l.load('fresh'))).toBe('fresh');
  });

  it('a failed load is not kept: the next caller loads again', async () => {
    const c = new TimedCache<number, string>(1000, () => 0);
    await expect(c.get(1, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await c.get(1, () => Promise.resolve('up'))).toBe('up');
  });

  it('keeps at most maxEntries: beyond them it starts over', async () => {
    const c = new TimedCache<number, number>(1000, () => 0, 3);
    let n = 0;
    const load = (v: number) => () => {
      n++;
      return Promise.resolve(v);
    };
    for (const k of [1, 2, 3]) await c.get(k, load(k));
    expect(await c.get(1, load(9))).toBe(1);
    await c.get(4, load(4)); // the fourth clears the three
    expect(await c.get(1, load(10))).toBe(10);
    expect(n).toBe(5);
  });
});
