// The fair-drop lottery draw ("lottery-sha256-v1"): which sign-up entries of a release win a
// purchase right.
//
// Before sign-up opens the platform publishes the draw epoch E (a future Conflux epoch) and the
// number of winners W. Entries get consecutive numbers 1…N in the order they were accepted (one per
// real-name identity). Once sign-up has closed and epoch E is on chain, the pivot block hash of E
// is the seed, and the winners follow from it alone — anyone can recompute them with this file
// (the server, the proof page's "recompute" button, any third party):
//
//   seed        = the 32 bytes of the pivot block hash of epoch E   (cfx_getBlockByEpochNumber(E).hash)
//   key(n)      = sha256(seed ‖ uint64be(n))                     for every entry number n = 1…N
//   winners     = the W entry numbers with the smallest keys       (keys compared as 256-bit
//                 big-endian numbers; all N when N ≤ W), listed in ascending entry-number order
//   entriesHash = sha256(utf8(lines joined by "\n")), line n = `${n},${maskedAccountId}`
//   winnersHash = sha256(utf8(winners joined by ","))
//
// Hashes are lowercase hex without 0x. Pure TS on @noble/hashes: the same code runs in Node and
// in the browser.
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils';

export const LOTTERY_DRAW_ALGORITHM = 'lottery-sha256-v1';

/** Largest number of entries this implementation draws. */
export const LOTTERY_MAX_ENTRIES = 2_000_000;

/** The algorithm as published on the proof page (code, not prose: the page explains it in the reader's language). */
export const LOTTERY_DRAW_PSEUDOCODE = [
  'seed   = bytes(blockHash of epoch E)            // 32 bytes',
  'key(n) = sha256(seed ‖ uint64_be(n))            // n = 1 … N',
  'winners = the W numbers n with the smallest key(n), sorted ascending',
  'entriesHash = sha256(utf8(join("\\n", [`${n},${maskedAccountId}` for n = 1 … N])))',
  'winnersHash = sha256(utf8(join(",", winners)))',
].join('\n');

function seedBytes(blockHashHex: string): Uint8Array {
  const h = blockHashHex.startsWith('0x') ? blockHashHex.slice(2) : blockHashHex;
  if (!/^[0-9a-fA-F]{64}$/.test(h)) throw new TypeError('blockHash must be 32 bytes of hex');
  return hexToBytes(h.toLowerCase());
}

/** key(n) = sha256(seed ‖ uint64be(n)), hex. */
export function lotteryKey(blockHashHex: string, entryNo: number): string {
  return bytesToHex(keyBytes(seedBytes(blockHashHex), entryNo));
}

function keyBytes(seed: Uint8Array, entryNo: number): Uint8Array {
  const n = new Uint8Array(8);
  new DataView(n.buffer).setBigUint64(0, BigInt(entryNo), false);
  return sha256(concatBytes(seed, n));
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** The winning entry numbers (ascending) among entries 1…`entries`, for `winners` winners. */
export function drawLotteryWinners(blockHashHex: string, entries: number, winners: number): number[] {
  if (!Number.isSafeInteger(entries) || entries < 0 || entries > LOTTERY_MAX_ENTRIES) throw new RangeError(`entries must be 0..${LOTTERY_MAX_ENTRIES}`);
  if (!Number.isSafeInteger(winners) || winners < 0) throw new RangeError('winners must be a whole number ≥ 0');
  const seed = seedBytes(blockHashHex);
  if (entries <= winners) return Array.from({ length: entries }, (_, i) => i + 1);
  const keyed = Array.from({ length: entries }, (_, i) => ({ n: i + 1, k: keyBytes(seed, i + 1) }));
  keyed.sort((a, b) => compareBytes(a.k, b.k) || a.n - b.n);
  return keyed
    .slice(0, winners)
    .map((e) => e.n)
    .sort((a, b) => a - b);
}

/** The canonical entry list's fingerprint: `${n},${maskedAccountId}` lines in entry-number order (entry n at index n − 1). */
export function lotteryEntriesHash(maskedAccountIds: readonly string[]): string {
  return bytesToHex(sha256(utf8ToBytes(maskedAccountIds.map((m, i) => `${i + 1},${m}`).join('\n'))));
}

/** The winner list's fingerprint: the ascending entry numbers joined by commas. */
export function lotteryWinnersHash(winners: readonly number[]): string {
  return bytesToHex(sha256(utf8ToBytes(winners.join(','))));
}

/** How an account id appears in the published entry list: first 2 and last 2 characters kept. */
export function maskAccountId(accountId: string): string {
  if (accountId.length <= 4) return '*'.repeat(accountId.length);
  return `${accountId.slice(0, 2)}${'*'.repeat(Math.max(4, accountId.length - 4))}${accountId.slice(-2)}`;
}

export interface LotteryProof {
  blockHash: string;
  winnersCount: number;
  /** Masked account ids in entry-number order. */
  entries: readonly string[];
  entriesHash: string;
  winners: readonly number[];
  winnersHash: string;
}

/** Recomputes a published proof from its inputs: the entry list matches its hash, and the draw gives the published winners and hash. */
export function verifyLotteryProof(p: LotteryProof): { entriesOk: boolean; winnersOk: boolean; winners: number[] | null } {
  const clean = (h: string) => h.replace(/^0x/, '').toLowerCase();
  const entriesOk = lotteryEntriesHash(p.entries) === clean(p.entriesHash);
  let winners: number[];
  try {
    winners = drawLotteryWinners(p.blockHash, p.entries.length, p.winnersCount);
  } catch {
    return { entriesOk, winnersOk: false, winners: null };
  }
  const same = winners.length === p.winners.length && winners.every((w, i) => w === p.winners[i]);
  return { entriesOk, winnersOk: same && lotteryWinnersHash(winners) === clean(p.winnersHash), winners };
}
