import { Conflux, format } from 'js-conflux-sdk';
import type { Db } from '../db/database.ts';
import type { Rpc } from './rpc.ts';
import { toBase32Address, toHexAddress } from '@cfx/protocol/address.ts';

/**
 * Follows our contracts' Transfer, Approval, OrderExecuted, OrderCancelled and Consumed events into
 * `chain_records`. The checkpoint (last indexed epoch) is written in the same transaction as
 * the records, and (tx hash, log index) is unique, so a restart resumes without gaps or doubles.
 */
const EVENTS = ['Transfer', 'Approval', 'OrderExecuted', 'OrderCancelled', 'Consumed'] as const;
const MAX_SPAN = 1000;
/** Rows per multi-row INSERT of chain_records (10 columns: far below the databases' parameter limits). */
const INSERT_CHUNK = 200;

const TRANSFER_TOPIC = format.keccak256('Transfer(address,address,uint256)') as string;
const APPROVAL_TOPIC = format.keccak256('Approval(address,address,uint256)') as string;

/**
 * ERC-721 Transfer and Approval (all three arguments indexed, no data) decoded from their topics —
 * what js-conflux-sdk's decodeLog gives for them (the same field names, order and base32 addresses;
 * test/indexer-decode.test.ts compares both), without its ABI decoder and address codec on every
 * log: a drop's mint of 10,000 tokens is 10,000 Transfer logs, and decoding them took ≈ 10 % of the
 * worker process's CPU while buyers were still being served. `base32` converts a hex address.
 * Undefined for any other log (decoded by the SDK).
 */
export function decodeTokenLog(l: { topics?: string[]; data?: string }, base32: (hex: string) => string): { name: 'Transfer' | 'Approval'; object: Record<string, string> } | undefined {
  const t = l.topics;
  if (!t || t.length !== 4 || (l.data && l.data !== '0x')) return undefined;
  const a = base32(`0x${t[1]!.slice(-40)}`);
  const b = base32(`0x${t[2]!.slice(-40)}`);
  const tokenId = BigInt(t[3]!).toString();
  if (t[0] === TRANSFER_TOPIC) return { name: 'Transfer', object: { from: a, to: b, tokenId } };
  if (t[0] === APPROVAL_TOPIC) return { name: 'Approval', object: { owner: a, approved: b, tokenId } };
  return undefined;
}

/** topic0 of Exchange.OrderExecuted (also read by the settlement's receipt decoding, modules/market/chain-settlement.ts). */
export const ORDER_EXECUTED_TOPIC = format.keccak256('OrderExecuted(bytes32,address,address,address,uint256,uint256,string,string)') as string;

/** The ABI string at byte offset `at` of `hex` (no 0x), or undefined when it does not fit. */
export function abiStringAt(hex: string, at: number): string | undefined {
  if (!Number.isSafeInteger(at) || at % 32 !== 0 || hex.length < at * 2 + 64) return undefined;
  const len = Number(BigInt(`0x${hex.slice(at * 2, at * 2 + 64)}`));
  if (!Number.isSafeInteger(len) || hex.length < at * 2 + 64 + len * 2) return undefined;
  return Buffer.from(hex.slice(at * 2 + 64, at * 2 + 64 + len * 2), 'hex').toString('utf8');
}

/**
 * Exchange.OrderExecuted(bytes32 indexed orderHash, address indexed seller, address indexed buyer,
 * address nftToken, uint256 tokenId, uint256 amount, string sellerOrderId, string buyerOrderId) decoded
 * by hand — what js-conflux-sdk's decodeLog gives (test/indexer-decode.test.ts compares both): every
 * consignment sale is one, and the SDK's ABI decoder with its pure-JS address codec took ≈ 5 % of the
 * server's CPU while a backlog of sales settled. Undefined for any other log, or one whose data does not
 * fit the layout (left to the SDK, as before).
 */
export function decodeOrderExecutedLog(l: { topics?: string[]; data?: string }, base32: (hex: string) => string): { name: 'OrderExecuted'; object: Record<string, string> } | undefined {
  const t = l.topics;
  if (!t || t.length !== 4 || t[0] !== ORDER_EXECUTED_TOPIC || !l.data?.startsWith('0x')) return undefined;
  const hex = l.data.slice(2);
  if (hex.length < 5 * 64 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  const word = (i: number) => BigInt(`0x${hex.slice(i * 64, (i + 1) * 64)}`);
  const sellerOrderId = abiStringAt(hex, Number(word(3)));
  const buyerOrderId = abiStringAt(hex, Number(word(4)));
  if (sellerOrderId === undefined || buyerOrderId === undefined) return undefined;
  return {
    name: 'OrderExecuted',
    object: {
      orderHash: t[1]!.toLowerCase(),
      seller: base32(`0x${t[2]!.slice(-40)}`),
      buyer: base32(`0x${t[3]!.slice(-40)}`),
      nftToken: base32(`0x${hex.slice(24, 64)}`),
      tokenId: word(1).toString(),
      amount: word(2).toString(),
      sellerOrderId,
      buyerOrderId,
    },
  };
}

export interface IndexedRecord {
  event: string;
  contract: string;
  tokenId: string | null;
  from: string | null;
  to: string | null;
  /** The decoded event's fields as JSON (bigints as decimal strings), as stored in chain_records.data. */
  data?: string;
}

export class Indexer {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private busy: Promise<void> | undefined;
  private contracts: { address: string; abi: any }[];
  private topics: string[] = [];
  private decoders = new Map<string, any>();
  private listeners = new Set<(records: IndexedRecord[]) => void>();
  /** hex or base32 → base32 of this network (@cfx/protocol memoises it: the same contracts and buyers appear in log after log). */
  private base32 = (address: string): string => toBase32Address(address, this.networkId);

  constructor(
    private readonly db: Db,
    private readonly rpc: Rpc,
    contracts: { address: string; abi: any[] }[],
    private readonly networkId: number,
    private readonly intervalMs: number,
    private readonly log: (msg: string, extra?: unknown) => void = () => {},
  ) {
    const sdk = new Conflux({ networkId });
    this.contracts = contracts.map((c) => {
      const contract = sdk.Contract({ abi: c.abi, address: c.address });
      this.decoders.set(toHexAddress(c.address), contract);
      return { address: c.address, abi: c.abi };
    });
    for (const c of this.contracts) {
      for (const item of c.abi) {
        if (item.type === 'event' && (EVENTS as readonly string[]).includes(item.name)) {
          const sig = `${item.name}(${item.inputs.map((i: any) => i.type).join(',')})`;
          const topic = format.keccak256(sig) as string;
          if (!this.topics.includes(topic)) this.topics.push(topic);
        }
      }
    }
  }

  onRecords(l: (records: IndexedRecord[]) => void) {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  start(fromEpoch: number) {
    this.stopped = false;
    void this.ensureCheckpoint(fromEpoch).then(() => this.schedule(0));
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.busy;
  }

  private async ensureCheckpoint(fromEpoch: number) {
    await this.db.kysely.insertInto('chain_meta').values({ key: 'indexer_epoch', value: String(fromEpoch - 1) }).onConflict((oc) => oc.column('key').doNothing()).execute();
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.busy = this.runOnce()
        .then((more) => this.schedule(more ? 0 : this.intervalMs))
        .catch((err) => {
          this.log('indexer pass failed', { err: String(err) });
          this.schedule(this.intervalMs);
        });
    }, ms);
  }

  /** Indexes the next span of epochs up to latest_state; true when more remain. */
  async runOnce(): Promise<boolean> {
    const last = Number((await this.db.kysely.selectFrom('chain_meta').select('value').where('key', '=', 'indexer_epoch').executeTakeFirst())?.value ?? -1);
    const head = Number(BigInt(await this.rpc.call<string>('cfx_epochNumber', ['latest_state'])));
    if (head <= last) return false;
    const from = last + 1;
    const to = Math.min(head, from + MAX_SPAN - 1);
    const logs = await this.rpc.call<any[]>('cfx_getLogs', [{
      fromEpoch: `0x${from.toString(16)}`,
      toEpoch: `0x${to.toString(16)}`,
      address: this.contracts.map((c) => c.address),
      topics: [this.topics],
    }]);
    const epochs = [...new Set(logs.map((l) => Number(BigInt(l.epochNumber))))];
    const times = new Map<number, number>();
    const blocks = await this.rpc.batch(epochs.map((e) => ({ method: 'cfx_getBlockByEpochNumber', params: [`0x${e.toString(16)}`, false] })));
    epochs.forEach((e, i) => times.set(e, Number(BigInt((blocks[i] as any)?.timestamp ?? '0x0')) * 1000));

    const records: (IndexedRecord & { txHash: string; logIndex: number; epoch: number; time: number; data: string })[] = [];
    for (const l of logs) {
      const contract = this.decoders.get(toHexAddress(l.address));
      if (!contract) continue;
      let decoded: any = decodeTokenLog(l, this.base32) ?? decodeOrderExecutedLog(l, this.base32);
      if (!decoded) {
        try {
          decoded = contract.abi.decodeLog(l);
        } catch {
          continue;
        }
      }
      if (!decoded || !(EVENTS as readonly string[]).includes(decoded.name)) continue;
      const o = decoded.object as Record<string, unknown>;
      const addr = (v: unknown) => (typeof v === 'string' && v ? this.base32(v) : null);
      let from: string | null = null, to: string | null = null, tokenId: string | null = null;
      if (decoded.name === 'Transfer') { from = addr(o.from); to = addr(o.to); tokenId = String(o.tokenId); }
      else if (decoded.name === 'Approval') { from = addr(o.owner); to = addr(o.approved); tokenId = String(o.tokenId); }
      else if (decoded.name === 'OrderExecuted') { from = addr(o.seller); to = addr(o.buyer); tokenId = String(o.tokenId); }
      else if (decoded.name === 'OrderCancelled') { from = addr(o.seller); }
      // A box opening / compose (Collectible.consumeAndMint): the holder; burn and mint ids are in data (their Transfers are recorded too).
      else if (decoded.name === 'Consumed') { from = addr(o.owner); }
      const epoch = Number(BigInt(l.epochNumber));
      records.push({
        event: decoded.name,
        contract: this.base32(l.address),
        tokenId, from, to,
        txHash: l.transactionHash,
        logIndex: Number(BigInt(l.transactionLogIndex ?? l.logIndex ?? '0x0')),
        epoch,
        time: times.get(epoch) ?? 0,
        data: JSON.stringify(o, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
      });
    }
    await this.db.kysely.transaction().execute(async (trx) => {
      for (let i = 0; i < records.length; i += INSERT_CHUNK) {
        await trx
          .insertInto('chain_records')
          .values(records.slice(i, i + INSERT_CHUNK).map((r) => ({ tx_hash: r.txHash, log_index: r.logIndex, epoch: r.epoch, block_time: r.time, contract: r.contract, event: r.event, from_address: r.from, to_address: r.to, token_id: r.tokenId, data: r.data })))
          .onConflict((oc) => oc.columns(['tx_hash', 'log_index']).doNothing())
          .execute();
      }
      await trx.updateTable('chain_meta').set({ value: String(to) }).where('key', '=', 'indexer_epoch').execute();
    });
    if (records.length) for (const l of this.listeners) l(records);
    return to < head;
  }
}
