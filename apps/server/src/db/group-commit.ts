/**
 * Group commit: the items submitted while the previous batch is being written are written together
 * by the next call of `write` — one transaction for many requests (drop reservations, balance
 * payments, fulfilments). Each submitter gets its own member's outcome.
 *
 * - The first batch starts one turn of the event loop after the first submit, so the requests that
 *   arrived together share it; at most `maxBatch` items per batch.
 * - `lanes` batches are written at the same time (`batchLanes` in tx.ts: one on SQLite, several on
 *   PostgreSQL, where the writers' row locks keep concurrent batches correct).
 * - A batch of several that fails is written again member by member, so one bad member cannot take
 *   the others down — unless `failTogether(err)` says the error is not a member's (database
 *   contention): then every member gets it.
 */
export interface GroupCommitOptions<T, R> {
  maxBatch: number;
  lanes: number;
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
  private running = 0;

  constructor(private readonly opts: GroupCommitOptions<T, R>) {}

  /** Adds `item` to the next batch; resolves with its outcome once that batch is written. */
  submit(item: T): Promise<R> {
    return new Promise<R>((done, fail) => {
      this.waiting.push({ item, done, fail });
      if (this.running < this.opts.lanes) {
        this.running++;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain() {
    try {
      while (this.waiting.length) await this.settle(this.waiting.splice(0, this.opts.maxBatch));
    } finally {
      this.running--;
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
