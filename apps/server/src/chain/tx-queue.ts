import { Transaction, format } from 'js-conflux-sdk';
import type { Db } from '../db/database.ts';
import type { Updateable } from 'kysely';
import type { ChainTxKind, ChainTxsTable } from '../db/schema.ts';
import { keyList } from '../db/key-list.ts';
import type { ChainConfig } from '../config.ts';
import { createRpc, RpcError, type Rpc } from './rpc.ts';
import { checkFence, LeaseLostError, type FenceSource } from '../jobs/worker-lease.ts';

/**
 * The operator's durable transaction queue.
 *
 *   queued ──sign──▶ signed ──send──▶ sent ──receipt──▶ confirmed | failed
 *
 * A transaction is signed with the next nonce and its raw bytes and hash are stored in the
 * database *before* it is sent. After a crash, a `signed` or `sent` row is re-sent as the very
 * same bytes (same nonce, same hash) and its receipt polled, so a restart can never produce a
 * second transaction that would execute twice. Only `queued` rows (never signed) get a nonce.
 *
 * Receipts: no receipt → wait `receiptIntervalMs` and retry; after `receiptTries` misses the same
 * raw transaction is re-broadcast (up to 3 rounds) before the row is reported failed. Outcome
 * status 0 is success, anything else failure.
 *
 * Under the worker lease (`fenced(source)`, set by worker-role.ts; several server processes): the
 * nonce allocation (queued → signed) commits only in a transaction that still holds the lease's token,
 * and a batch is broadcast only after a transaction that still holds the token recorded it as sent —
 * so a holder paused past its lease signs and sends nothing new (at most it re-sends bytes already
 * stored, which are the same transaction). The new holder's start() takes the next nonce from
 * max(chain, stored) and re-broadcasts every stored `sent` row at once.
 */
export interface EnqueueInput {
  /** Unique per business operation (e.g. `mint:123`); enqueuing it again returns the existing row. */
  key: string;
  kind: ChainTxKind;
  to: string;
  data: string;
}

/** Gas and storage limits a caller knows for a transaction without asking the node to estimate it. */
export type PresetLimits = (to: string, data: string) => { gas: bigint; storageLimit: bigint } | undefined;

export interface TxRow {
  id: number;
  status: string;
  tx_hash: string | null;
  outcome_status: number | null;
  error: string | null;
  epoch: number | null;
}

const BATCH = 400;
const MAX_ROUNDS = 3;

export class TxQueue {
  readonly rpc: Rpc;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  private wake: (() => void) | undefined;
  private gasPrice = '0x3b9aca00';
  private epochHeight = 0;
  private listeners = new Set<(row: TxRow) => void>();
  private fence: FenceSource | undefined;
  /** Transactions this process broadcast for the first time (sendSigned; a metric of the failover tests). */
  broadcasts = 0;
  /** Test hook: stop working (as if the process died) right after signing or sending a batch. */
  haltAfter: 'sign' | 'send' | undefined;

  constructor(
    private readonly db: Db,
    private readonly cfg: ChainConfig,
    rpcUrl: string,
    private readonly operatorKey: string,
    readonly operatorAddress: string,
    private readonly log: (msg: string, extra?: unknown) => void = () => {},
  ) {
    this.rpc = createRpc(rpcUrl);
  }

  async enqueue(input: EnqueueInput, now = Date.now()): Promise<number> {
    const existing = await this.db.kysely.selectFrom('chain_txs').select('id').where('idempotency_key', '=', input.key).executeTakeFirst();
    if (existing) return Number(existing.id);
    try {
      const row = await this.db.kysely
        .insertInto('chain_txs')
        .values({ idempotency_key: input.key, kind: input.kind, to_address: input.to, data: input.data, status: 'queued', created_at: now, nonce: null, tx_hash: null, raw_tx: null, outcome_status: null, epoch: null, error: null, sent_at: null, done_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      this.kick();
      return Number(row.id);
    } catch (err) {
      const again = await this.db.kysely.selectFrom('chain_txs').select('id').where('idempotency_key', '=', input.key).executeTakeFirst();
      if (again) return Number(again.id);
      throw err;
    }
  }

  async get(id: number): Promise<TxRow | undefined> {
    return this.db.kysely.selectFrom('chain_txs').select(['id', 'status', 'tx_hash', 'outcome_status', 'error', 'epoch']).where('id', '=', id).executeTakeFirst();
  }

  /** Resolves when the row is confirmed or failed. */
  async waitFor(id: number, timeoutMs = 120_000): Promise<TxRow> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = await this.get(id);
      if (row && (row.status === 'confirmed' || row.status === 'failed')) return row;
      if (Date.now() > deadline) throw new Error(`transaction ${id} still ${row?.status} after ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 50);
        const l = (r: TxRow) => { if (r.id === id) { clearTimeout(t); this.listeners.delete(l); resolve(); } };
        this.listeners.add(l);
      });
    }
  }

  onDone(listener: (row: TxRow) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private presets: PresetLimits[] = [];

  /**
   * Limits for transactions whose cost is known in advance (the settlement batches: so much gas per
   * fill): such rows are signed without cfx_estimateGasAndCollateral, which would make the node run
   * every batch twice. A rule returns undefined for a transaction it does not know; the rule added last
   * is asked first.
   */
  presetLimits(rule: PresetLimits) {
    this.presets.unshift(rule);
    return () => void this.presets.splice(this.presets.indexOf(rule), 1);
  }

  /** Signs and sends only under the worker lease's current token (undefined: no lease). */
  fenced(source: FenceSource | undefined) {
    this.fence = source;
  }

  async start() {
    this.stopped = false;
    await this.syncNonce();
    this.gasPrice = await this.rpc.call<string>('cfx_gasPrice').catch(() => this.gasPrice);
    await this.resendPending();
    this.loop();
  }

  /** A new holder (or a restart): the stored `sent` rows go out again as the same bytes, in nonce order. */
  private async resendPending() {
    const rows = await this.db.kysely.selectFrom('chain_txs').select('raw_tx').where('status', '=', 'sent').orderBy('nonce').execute();
    for (let i = 0; i < rows.length; i += BATCH) {
      await this.rpc.batch(rows.slice(i, i + BATCH).map((r) => ({ method: 'cfx_sendRawTransaction', params: [r.raw_tx] }))).catch(() => {});
    }
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.wake?.();
    while (this.running) await new Promise((r) => setTimeout(r, 10));
  }

  kick() {
    this.wake?.();
  }

  /** Next nonce = max(what we assigned, what the chain says): signed-but-unsent rows keep their nonces. */
  private async syncNonce() {
    const chainNonce = Number(BigInt(await this.rpc.call<string>('cfx_getNextNonce', [this.operatorAddress])));
    await this.db.kysely.transaction().execute(async (trx) => {
      await checkFence(trx, this.fence);
      const stored = (await trx.selectFrom('chain_meta').select('value').where('key', '=', 'operator_nonce').executeTakeFirst())?.value;
      const next = Math.max(chainNonce, stored === undefined ? 0 : Number(stored));
      await this.setMeta('operator_nonce', String(next), trx);
    });
  }

  private async meta(key: string) {
    return (await this.db.kysely.selectFrom('chain_meta').select('value').where('key', '=', key).executeTakeFirst())?.value;
  }

  private async setMeta(key: string, value: string, trx: Db['kysely'] = this.db.kysely) {
    await trx.insertInto('chain_meta').values({ key, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
  }

  private loop() {
    if (this.stopped) return;
    this.running = true;
    this.tick()
      .catch((err) => this.log(err instanceof LeaseLostError ? 'tx queue fenced: the worker lease moved on' : 'tx queue tick failed', { err: String(err) }))
      .finally(() => {
        this.running = false;
        if (this.stopped) return;
        const pause = new Promise<void>((resolve) => {
          this.wake = resolve;
          this.timer = setTimeout(resolve, 50);
        });
        void pause.then(() => this.loop());
      });
  }

  /** One pass: sign queued rows, (re)send signed rows, poll receipts that are due. */
  async tick() {
    const signed = await this.signQueued();
    // The halt hooks fire only after a batch really was signed / sent: a tick with nothing to do
    // must not halt the queue before the transaction under test is even queued.
    if (this.haltAfter === 'sign' && signed) { this.stopped = true; return; }
    const sent = await this.sendSigned();
    if (this.haltAfter === 'send' && sent) { this.stopped = true; return; }
    await this.pollReceipts();
  }

  /** Signs a batch of queued transactions; returns how many it took. */
  private async signQueued(): Promise<number> {
    const rows = await this.db.kysely.selectFrom('chain_txs').select(['id', 'to_address', 'data']).where('status', '=', 'queued').orderBy('id').limit(BATCH).execute();
    if (rows.length === 0) return 0;
    this.epochHeight = Number(BigInt(await this.rpc.call<string>('cfx_epochNumber', ['latest_state'])));
    const preset = rows.map((r) => this.presets.reduce<ReturnType<PresetLimits>>((found, rule) => found ?? rule(r.to_address, r.data), undefined));
    const toEstimate = rows.filter((_, i) => !preset[i]);
    const estimated = toEstimate.length
      ? await this.rpc.batch(toEstimate.map((r) => ({ method: 'cfx_estimateGasAndCollateral', params: [{ from: this.operatorAddress, to: r.to_address, data: r.data }, 'latest_state'] })))
      : [];
    let e = 0;
    const estimates = preset.map((p) => (p ? { gasLimit: String(p.gas), storageCollateralized: '0', storageLimit: p.storageLimit } : estimated[e++]));
    const firstNonce = Number(await this.meta('operator_nonce'));
    let nonce = firstNonce;
    const signed: { id: number; nonce: number; hash: string; raw: string }[] = [];
    const rejected: { id: number; error: string }[] = [];
    rows.forEach((r, i) => {
      const est = estimates[i] as { gasLimit: string; storageCollateralized: string; storageLimit?: bigint } | RpcError;
      if (est instanceof RpcError) {
        rejected.push({ id: Number(r.id), error: `${est.message} ${typeof est.data === 'string' ? est.data : JSON.stringify(est.data ?? '')}`.slice(0, 500) });
        return;
      }
      const tx = new Transaction({
        from: this.operatorAddress,
        to: r.to_address,
        nonce,
        gasPrice: this.gasPrice,
        gas: est.gasLimit,
        storageLimit: est.storageLimit ?? (BigInt(est.storageCollateralized) * 11n) / 10n + 256n,
        epochHeight: this.epochHeight,
        chainId: this.cfg.networkId,
        value: 0,
        data: r.data,
      } as any);
      tx.sign(this.operatorKey, this.cfg.networkId);
      signed.push({ id: Number(r.id), nonce, hash: format.hex(tx.hash as any), raw: format.hex(tx.serialize() as any) });
      nonce++;
    });
    // Raw transactions and the nonce counter are stored together before anything is sent.
    await this.db.kysely.transaction().execute(async (trx) => {
      await checkFence(trx, this.fence);
      // The counter must not have moved since it was read (a second signer would reuse the nonces).
      const current = (await trx.selectFrom('chain_meta').select('value').where('key', '=', 'operator_nonce').executeTakeFirst())?.value;
      if (Number(current) !== firstNonce) throw new Error(`operator nonce moved from ${firstNonce} to ${current} while signing`);
      for (const s of signed) {
        await trx.updateTable('chain_txs').set({ status: 'signed', nonce: s.nonce, tx_hash: s.hash, raw_tx: s.raw }).where('id', '=', s.id).where('status', '=', 'queued').execute();
      }
      for (const r of rejected) {
        await trx.updateTable('chain_txs').set({ status: 'failed', error: r.error, done_at: Date.now() }).where('id', '=', r.id).where('status', '=', 'queued').execute();
      }
      await this.setMeta('operator_nonce', String(nonce), trx);
    });
    for (const r of rejected) this.emit(r.id);
    return rows.length;
  }

  /** Sends the signed transactions in nonce order; returns how many it sent. */
  private async sendSigned(): Promise<number> {
    const rows = await this.db.kysely.selectFrom('chain_txs').select(['id', 'raw_tx']).where('status', '=', 'signed').orderBy('nonce').limit(BATCH).execute();
    if (rows.length === 0) return 0;
    const now = Date.now();
    // Recorded as sent first, in a transaction that still holds the lease; then broadcast. A crash in
    // between leaves `sent` rows that the next start() (or the receipt poll's re-broadcast) sends.
    await this.db.kysely.transaction().execute(async (trx) => {
      await checkFence(trx, this.fence);
      await trx.updateTable('chain_txs').set({ status: 'sent', sent_at: now, next_check_at: now }).where('id', 'in', keyList({ db: this.db }, rows.map((r) => Number(r.id)))).where('status', '=', 'signed').execute();
    });
    const results = await this.rpc.batch(rows.map((r) => ({ method: 'cfx_sendRawTransaction', params: [r.raw_tx] }))).catch(async (err) => {
      // The node was not reached: back to `signed`, sent again on the next pass (the same bytes).
      await this.db.kysely.updateTable('chain_txs').set({ status: 'signed' }).where('id', 'in', rows.map((r) => r.id)).where('status', '=', 'sent').execute();
      throw err;
    });
    this.broadcasts += rows.length;
    this.log('operator transactions sent', { count: rows.length, ids: rows.map((r) => Number(r.id)) });
    for (let i = 0; i < rows.length; i++) {
      const res = results[i];
      // "already known" / stale nonce: a previous send (before a crash) got through; the receipt tells.
      if (res instanceof RpcError && !/known|exist|stale|too old|imported/i.test(`${res.message} ${JSON.stringify(res.data ?? '')}`)) {
        this.log('operator transaction refused by the node', { id: rows[i]!.id, error: res.message, data: res.data });
      }
    }
    return rows.length;
  }

  private async pollReceipts() {
    const now = Date.now();
    const rows = await this.db.kysely
      .selectFrom('chain_txs')
      .select(['id', 'tx_hash', 'raw_tx', 'tries', 'rounds'])
      .where('status', '=', 'sent')
      .where('next_check_at', '<=', now)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    const receipts = await this.rpc.batch(rows.map((r) => ({ method: 'cfx_getTransactionReceipt', params: [r.tx_hash] })));
    const done: number[] = [];
    const rebroadcast: string[] = [];
    // Rows that get the same values are updated by one statement: while a backlog settles, up to a
    // hundred transactions wait for their receipts and are polled every CHAIN_RECEIPT_INTERVAL_MS.
    const updates = new Map<string, { set: Updateable<ChainTxsTable>; ids: number[] }>();
    const update = (set: Updateable<ChainTxsTable>, id: number) => {
      const key = JSON.stringify(set);
      const u = updates.get(key);
      if (u) u.ids.push(id);
      else updates.set(key, { set, ids: [id] });
    };
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      const id = Number(r.id);
      const rc = receipts[i] as { outcomeStatus: string; epochNumber: string; txExecErrorMsg?: string | null } | null | RpcError;
      if (rc && !(rc instanceof RpcError)) {
        const outcome = Number(rc.outcomeStatus);
        update({ status: outcome === 0 ? 'confirmed' : 'failed', outcome_status: outcome, epoch: Number(rc.epochNumber), error: outcome === 0 ? null : (rc.txExecErrorMsg ?? 'reverted').slice(0, 500), done_at: now }, id);
        done.push(id);
        continue;
      }
      const tries = r.tries + 1;
      if (tries < this.cfg.receiptTries) {
        update({ tries, next_check_at: now + this.cfg.receiptIntervalMs }, id);
      } else if (r.rounds + 1 < MAX_ROUNDS) {
        rebroadcast.push(r.raw_tx!);
        update({ tries: 0, rounds: r.rounds + 1, next_check_at: now + this.cfg.receiptIntervalMs }, id);
      } else {
        update({ status: 'failed', tries, error: 'no receipt after the retry limit', done_at: now }, id);
        done.push(id);
      }
    }
    await this.db.kysely.transaction().execute(async (trx) => {
      await checkFence(trx, this.fence);
      for (const u of updates.values()) await trx.updateTable('chain_txs').set(u.set).where('id', 'in', keyList({ db: this.db }, u.ids)).execute();
    });
    if (rebroadcast.length) await this.rpc.batch(rebroadcast.map((raw) => ({ method: 'cfx_sendRawTransaction', params: [raw] }))).catch(() => {});
    for (const id of done) this.emit(id);
  }

  private emit(id: number) {
    void this.get(id).then((row) => { if (row) for (const l of this.listeners) l(row); });
  }
}
