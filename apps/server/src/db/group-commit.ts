/**
 * Group commit: the items submitted while the previous batch is being written are written together
 * by the next call of `write` — one transaction for many requests (drop reservations, balance
 * payments, fulfilments). Each submitter gets its own member's outcome.
 *
 * - The first batch starts one turn of the event loop after the first submit, so the requests that
 *   arrived together share it; at most `maxBatch` items per batch.
 * - One batch at a time per queue and process; the next one collects meanwhile. (PostgreSQL had four
 *   at a time: every batch of a queue takes the same hot row — the release's stock row, the escrow
 *   balance — so concurrent batches only queued for it, and their smaller sizes cost the database
 *   more per member; one at a time sold ≈ 15 % more per second with ≈ 25 % less database CPU per
 *   unit, bench/RESULTS.md.) Several processes still write their batches at the same time; the row
 *   locks every batch takes in one order keep that correct.
 * - A batch of several that fails is written again member by member, so one bad member cannot take
 *   the others down — unless `failTogether(err)` says the error is not a member's (database
 *   contention): then every member gets it.
 */
export interface GroupCommitOptions<T, R> {
  maxBatch: number;
  /** Writes one batch; one outcome per item, in the same order. */
  write: (items: T[]) => Promise<R[]>;
  failTogether?: (err: unknown) => boolean;
}

interface Member<T, R> {
  item: T;
  done: (r: R) => void;
  fail: (err: unknown) => void;
}

export class GroupCommit<T, R> {
  private waiting: Member<T, R>[] = [];
  private running = false;

  constructor(private readonly opts: GroupCommitOptions<T, R>) {}

  /** Adds `item` to the next batch; resolves with its outcome once that batch is written. */
  submit(item: T): Promise<R> {
    return new Promise<R>((done, fail) => {
      this.waiting.push({ item, done, fail });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain() {
    try {
      while (this.waiting.length) await this.settle(this.waiting.splice(0, this.opts.maxBatch));
    } finally {
      this.running = false;
    }
  }

  private async settle(batch: Member<T, R>[]): Promise<void> {
    try {
      const out = await this.opts.write(batch.map((m) => m.item));
      batch.forEach((m, i) => m.done(out[i]!));
    } catch (err) {
      if (batch.length > 1 && !this.opts.failTogether?.(err)) {
        for (const m of batch) await this.settle([m]);
        return;
      }
      for (const m of batch) m.fail(err);
    }
  }
}
