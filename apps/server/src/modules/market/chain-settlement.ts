import crypto from 'node:crypto';
import { format } from 'js-conflux-sdk';
import { loadArtifact } from '@cfx/contracts/src/artifacts.ts';
import { errorSelectors, simulateCall } from '@cfx/contracts/src/revert.ts';
import { toBase32Address } from '@cfx/protocol/address.ts';
import { exchangeDomain } from '@cfx/protocol/cip23.ts';
import type { Chain } from '../../chain/chain-service.ts';
import { RpcError } from '../../chain/rpc.ts';
import { abiStringAt, ORDER_EXECUTED_TOPIC } from '../../chain/indexer.ts';
import { hexOf, sameAddr } from './addr.ts';
import { FILLED_REVERTS, PERMANENT_REVERTS, type OrderCancelledEvent, type SettleRequest, type SettlementChain, type TokenEvent, type TxOutcome } from './settlement-chain.ts';

const word = (n: bigint) => n.toString(16).padStart(64, '0');
const addrWord = (a: string) => hexOf(a).slice(2).padStart(64, '0');
/** A dynamic `bytes` / `string` value: length word + data padded to whole words. */
function dyn(hex: string): string {
  const len = hex.length / 2;
  return word(BigInt(len)) + hex.padEnd(Math.ceil(len / 32) * 64, '0');
}

/**
 * Calldata of Exchange.executeOrder(ListOrder order, bytes signature, address buyer, string buyerOrderId),
 * the arguments ABI-encoded directly (≈ 9 µs against ≈ 100 µs for js-conflux-sdk's encoder, a hot spot
 * at hundreds of settlements per second). `selector` is the one js-conflux-sdk's coder computes from
 * the compiled Exchange ABI (`exchange.executeOrder.signature`), never a hand-written signature.
 * Checked byte for byte against js-conflux-sdk on the compiled ABI in test/market-encoding.test.ts.
 */
export function encodeExecuteOrder(req: SettleRequest, selector: string): string {
  if (!/^0x[0-9a-f]{8}$/.test(selector)) throw new TypeError(`executeOrder: bad selector ${selector}`);
  const sellerOrderId = Buffer.from(req.order.sellerOrderId, 'utf8').toString('hex');
  const tuple =
    addrWord(req.order.seller) + addrWord(req.order.nftToken) + word(BigInt(req.order.tokenId)) + word(BigInt(req.order.amount)) + word(160n) + dyn(sellerOrderId);
  const sig = dyn(req.signature.replace(/^0x/, '').toLowerCase());
  const buyerOrderId = dyn(Buffer.from(req.buyerOrderId, 'utf8').toString('hex'));
  const oTuple = 128;
  const oSig = oTuple + tuple.length / 2;
  const oBuyerId = oSig + sig.length / 2;
  return `${selector}${word(BigInt(oTuple))}${word(BigInt(oSig))}${addrWord(req.buyer)}${word(BigInt(oBuyerId))}${tuple}${sig}${buyerOrderId}`;
}

/**
 * Calldata of Exchange.executeOrders(Fill[] fills), Fill = (ListOrder order, bytes signature, address buyer,
 * string buyerOrderId): a Fill is encoded exactly like executeOrder's arguments (a dynamic tuple of the
 * same four fields), so each element is encodeExecuteOrder's output without its selector. Checked byte
 * for byte against js-conflux-sdk in test/market-encoding.test.ts.
 */
export function encodeExecuteOrders(reqs: SettleRequest[], selector: string): string {
  if (!/^0x[0-9a-f]{8}$/.test(selector)) throw new TypeError(`executeOrders: bad selector ${selector}`);
  const fills = reqs.map((r) => encodeExecuteOrder(r, '0x00000000').slice(10));
  let offset = reqs.length * 32;
  const offsets: string[] = [];
  for (const f of fills) {
    offsets.push(word(BigInt(offset)));
    offset += f.length / 2;
  }
  return `${selector}${word(32n)}${word(BigInt(reqs.length))}${offsets.join('')}${fills.join('')}`;
}

/** Gas limit of an executeOrders batch: base + per fill (see chainSettlement). */
export const BATCH_BASE_GAS = 200_000n;
export const BATCH_FILL_GAS = 160_000n;
/** Storage limit (bytes) of an executeOrders batch: base + per fill. */
export const BATCH_BASE_STORAGE = 1024n;
export const BATCH_FILL_STORAGE = 704n;

/** topic0 of Exchange.OrderExecuted (the indexer's) and Exchange.FillSkipped. */
export { ORDER_EXECUTED_TOPIC };
export const FILL_SKIPPED_TOPIC = format.keccak256(Buffer.from('FillSkipped(string,bytes4)', 'utf8')) as string;

/** What one fill of a settlement transaction did: executed, or skipped with the error selector (0x00000000: none). */
export type FillResult = { executed: true } | { executed: false; selector: string };

/**
 * The fills of a settlement transaction by buyerOrderId, from its receipt's exchange logs:
 * OrderExecuted(…, string sellerOrderId, string buyerOrderId) → executed; FillSkipped(string buyerOrderId,
 * bytes4 reason) → skipped. A buyerOrderId that executed wins over a later skip of the same id (a
 * duplicate in one batch).
 */
export function fillsOfReceipt(logs: { address: string; topics: string[]; data: string }[], exchange: string): Map<string, FillResult> {
  const out = new Map<string, FillResult>();
  for (const log of logs) {
    if (!sameAddr(log.address, exchange)) continue;
    const data = log.data.replace(/^0x/, '');
    const topic = log.topics[0]?.toLowerCase();
    if (topic === ORDER_EXECUTED_TOPIC) {
      // non-indexed: nftToken, tokenId, amount, sellerOrderId (offset), buyerOrderId (offset)
      const id = abiStringAt(data, Number(BigInt(`0x${data.slice(4 * 64, 5 * 64)}`)));
      if (id !== undefined) out.set(id, { executed: true });
    } else if (topic === FILL_SKIPPED_TOPIC) {
      const id = abiStringAt(data, Number(BigInt(`0x${data.slice(0, 64)}`)));
      if (id !== undefined && !out.has(id)) out.set(id, { executed: false, selector: `0x${data.slice(64, 72)}` });
    }
  }
  return out;
}

/** `Exchange.sellerOrderKey(seller, id)` = keccak256(abi.encode(seller, keccak256(bytes(id)))): the key of `sellerOrderIdState`. */
export function sellerOrderKey(seller: string, sellerOrderId: string): string {
  const idHash = (format.keccak256(Buffer.from(sellerOrderId, 'utf8')) as string).slice(2);
  return format.keccak256(Buffer.from(addrWord(seller) + idHash, 'hex')) as string;
}

/** The sellerOrderId of an OrderCancelled record (its decoded fields as JSON), or null. */
function cancelledIdOf(data: string | undefined): string | null {
  if (!data) return null;
  try {
    const id = (JSON.parse(data) as { sellerOrderId?: unknown }).sellerOrderId;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

/** The real SettlementChain on ctx.chain: raw cfx_call reads, simulateCall dry runs, the durable operator queue, the indexer. */
export async function chainSettlement(chain: Chain, opts: { batch?: number; batchWaitMs?: number } = {}): Promise<SettlementChain> {
  const [collectibleArt, exchangeArt] = await Promise.all([loadArtifact('Collectible'), loadArtifact('Exchange')]);
  const selectors = errorSelectors(collectibleArt.abi, exchangeArt.abi);
  const rpc = chain.queue.rpc;
  const { collectible, exchange } = chain.contracts;
  const domain = exchangeDomain(chain.networkId, chain.exchangeHex);

  const executeSelector = exchange.executeOrder.signature as string;
  const executeData = (req: SettleRequest) => encodeExecuteOrder(req, executeSelector);
  const batchSelector = exchange.executeOrders.signature as string;

  // Submissions are gathered into executeOrders batches: up to `batch` fills, flushed when full or
  // `batchWaitMs` after the first one. The batch's queue key hashes its fills' keys, so the same set
  // submitted again is the same transaction; an order submitted again in another batch (after a crash
  // before it was marked settling) is refused by the chain the second time (single-use buyerOrderId).
  const maxBatch = Math.max(1, opts.batch ?? 30);
  const waitMs = opts.batchWaitMs ?? 5;
  const gathering: { req: SettleRequest; resolve: (id: number) => void; reject: (e: unknown) => void }[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    while (gathering.length) {
      const group = gathering.splice(0, maxBatch);
      const byKey = new Map<string, SettleRequest>();
      for (const g of group) byKey.set(g.req.key, g.req);
      const reqs = [...byKey.values()];
      const key = `settle-batch:${crypto.createHash('sha256').update(reqs.map((r) => r.key).join('\n')).digest('hex').slice(0, 40)}`;
      chain.queue.enqueue({ key, kind: 'settle', to: chain.exchange, data: encodeExecuteOrders(reqs, batchSelector) }).then(
        (id) => { for (const g of group) g.resolve(id); },
        (err) => { for (const g of group) g.reject(err); },
      );
    }
  };

  // A batch's limits from its number of fills (no estimate: the node would run each batch twice).
  // Measured with the node's estimate on the settlement benchmark: 78–91k gas per fill in full batches,
  // up to 160k in the first batches on fresh state; storage up to 640 bytes (ten 64-byte entries) per
  // fill. Conflux charges at least 3/4 of the gas limit, so the headroom costs ≈ 1/3 more gas than used
  // (sponsored; ≈ 0.001 CFX per batch of 30 at 1 Gdrip). A fill that still runs out of gas is skipped
  // with no selector and retried; a batch that fails as a whole sends each of its orders down the
  // failed-transaction path (dry run, then resubmitted).
  chain.queue.presetLimits((to, data) => {
    if (!sameAddr(to, chain.exchange) || !data.startsWith(batchSelector)) return undefined;
    const n = BigInt(`0x${data.slice(74, 138)}`);
    return { gas: BATCH_BASE_GAS + BATCH_FILL_GAS * n, storageLimit: BATCH_BASE_STORAGE + BATCH_FILL_STORAGE * n };
  });

  // The queue row of a settlement transaction, one read for the fills that ask at the same time (the
  // orders of one batch look at their transaction together); nothing is kept once the read returns.
  const reading = new Map<number, ReturnType<typeof chain.queue.get>>();
  const queueRow = (txId: number) => {
    let r = reading.get(txId);
    if (!r) {
      r = chain.queue.get(txId).finally(() => reading.delete(txId));
      reading.set(txId, r);
    }
    return r;
  };

  // Terminal outcomes of settlement transactions: the queue row and its fills (one receipt read per transaction).
  type Done = { state: 'confirmed' | 'failed'; txHash: string | null; error: string | null; fills: Map<string, FillResult> | undefined };
  const done = new Map<number, Promise<Done>>();
  const doneOf = (txId: number, row: { status: string; tx_hash: string | null; error: string | null }): Promise<Done> => {
    let p = done.get(txId);
    if (!p) {
      p = (async (): Promise<Done> => {
        if (row.status !== 'confirmed' || !row.tx_hash) return { state: 'failed', txHash: row.tx_hash, error: row.error, fills: undefined };
        const rc = await rpc.call<{ logs: { address: string; topics: string[]; data: string }[] } | null>('cfx_getTransactionReceipt', [row.tx_hash]);
        if (!rc) throw new Error(`receipt of ${row.tx_hash} not found`);
        return { state: 'confirmed', txHash: row.tx_hash, error: null, fills: fillsOfReceipt(rc.logs, chain.exchange) };
      })();
      p.catch(() => done.delete(txId));
      if (done.size > 5_000) done.clear();
      done.set(txId, p);
    }
    return p;
  };

  /** The address in a 32-byte ABI word, as base32 (memoised by @cfx/protocol); null for the zero address or a revert. */
  const wordAddress = (r: unknown): string | null => {
    if (r instanceof RpcError || typeof r !== 'string' || r.length < 66) return null;
    const hex = `0x${r.slice(-40)}`;
    if (/^0x0{40}$/.test(hex)) return null;
    return toBase32Address(hex, chain.networkId);
  };

  return {
    networkId: chain.networkId,
    collectible: chain.collectible,
    collectibleHex: chain.collectibleHex,
    exchange: chain.exchange,
    exchangeHex: chain.exchangeHex,
    explorerUrl: chain.explorerUrl,
    domain: () => domain,
    async tokenState(tokenId) {
      const id = BigInt(tokenId);
      const [owner, approved] = await rpc.batch([
        { method: 'cfx_call', params: [{ to: chain.collectible, data: collectible.ownerOf(id).data }, 'latest_state'] },
        { method: 'cfx_call', params: [{ to: chain.collectible, data: collectible.getApproved(id).data }, 'latest_state'] },
      ]);
      // A revert (-32015) means "no such token"; anything else is the node failing.
      for (const r of [owner, approved]) if (r instanceof RpcError && r.code !== -32015) throw r;
      return { owner: wordAddress(owner), approved: wordAddress(approved) };
    },
    async check(req) {
      try {
        const outcome = await simulateCall(rpc.url, { from: chain.operatorAddress, to: chain.exchange, data: executeData(req) }, selectors);
        if (outcome.ok) return { ok: true };
        const name = outcome.revert.name;
        return { ok: false, permanent: PERMANENT_REVERTS.has(name), reason: FILLED_REVERTS.has(name) ? name : name === 'Unknown' ? `reverted ${outcome.revert.selector}` : name };
      } catch (err) {
        return { ok: false, permanent: false, reason: `chain unreachable: ${String((err as Error).message ?? err)}`.slice(0, 200) };
      }
    },
    submit: (req) =>
      new Promise<number>((resolve, reject) => {
        gathering.push({ req, resolve, reject });
        if (gathering.length >= maxBatch) flush();
        else flushTimer ??= setTimeout(flush, waitMs);
      }),
    async outcome(txId, buyerOrderId): Promise<TxOutcome> {
      let d = done.get(txId);
      if (!d) {
        const row = await queueRow(txId);
        if (!row) return { state: 'failed', txHash: null, error: 'unknown transaction' };
        if (row.status !== 'confirmed' && row.status !== 'failed') return { state: 'pending', txHash: row.tx_hash, error: null };
        d = doneOf(txId, row);
      }
      const r = await d;
      if (r.state === 'failed' || !r.fills) return { state: 'failed', txHash: r.txHash, error: r.error };
      const fill = r.fills.get(buyerOrderId);
      if (!fill) return { state: 'failed', txHash: r.txHash, error: 'the transaction holds no fill of this order' };
      if (fill.executed) return { state: 'confirmed', txHash: r.txHash, error: null };
      const name = selectors.get(fill.selector) ?? `reverted ${fill.selector}`;
      return { state: 'failed', txHash: r.txHash, error: `fill skipped: ${name}`, skipped: { reason: name, permanent: PERMANENT_REVERTS.has(name) } };
    },
    async executed(buyerOrderId) {
      const key = format.keccak256(Buffer.from(buyerOrderId, 'utf8'));
      return Boolean(await exchange.buyerOrderIdUsed(key));
    },
    async sellerOrderState(seller, sellerOrderId) {
      const data = exchange.sellerOrderIdState(sellerOrderKey(seller, sellerOrderId)).data as string;
      const r = await rpc.call<string>('cfx_call', [{ to: chain.exchange, data }, 'latest_state']);
      const state = Number(BigInt(r));
      return state === 1 ? 'filled' : state === 2 ? 'cancelled' : 'open';
    },
    onTxDone: (listener) => {
      const off = chain.queue.onDone((row) => listener(Number(row.id)));
      return () => void off();
    },
    onTokenEvents: (listener) => {
      const off = chain.indexer.onRecords((records) => {
        const events: TokenEvent[] = [];
        for (const r of records) {
          if ((r.event === 'Transfer' || r.event === 'Approval') && r.tokenId && sameAddr(r.contract, chain.collectible)) {
            events.push({ event: r.event, tokenId: r.tokenId, from: r.from, to: r.to });
          }
        }
        if (events.length) listener(events);
      });
      return () => void off();
    },
    onOrdersCancelled: (listener) => {
      const off = chain.indexer.onRecords((records) => {
        const events: OrderCancelledEvent[] = [];
        for (const r of records) {
          if (r.event === 'OrderCancelled' && r.from && sameAddr(r.contract, chain.exchange)) events.push({ seller: r.from, sellerOrderId: cancelledIdOf(r.data) });
        }
        if (events.length) listener(events);
      });
      return () => void off();
    },
  };
}
