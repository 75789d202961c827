// The blind-box draw ("box-shuffle-v1"): which item kind each box serial of a release holds.
//
// Before the sale the platform publishes the odds (item kinds with their counts, summing to the
// supply), the commitment H = sha256(serverSeed) and a future reveal epoch E. After the sale (and
// once epoch E exists on chain) it publishes serverSeed and the pivot block hash of epoch E, and
// the assignment follows from them alone — anyone can recompute it with this file (the server, the
// browser's "recompute" button, any third party):
//
//   seed        = sha256(serverSeed ‖ blockHash)            (the 32 + 32 bytes, not their hex text)
//   deck        = [0 × count0, 1 × count1, …]                 (kind indexes in the published order)
//   stream      = sha256(seed ‖ uint64be(0)) ‖ sha256(seed ‖ uint64be(1)) ‖ …   read as uint32be words
//   randBelow(m)= the next word w with w < ⌊2^32 / m⌋·m (others are skipped: no modulo bias), w mod m
//   shuffle     = for i = N−1 down to 1: j = randBelow(i + 1); swap deck[i], deck[j]   (Fisher–Yates)
//   assignment  = deck: box serial s (1-based) holds kind deck[s − 1]
//   hash        = sha256(utf8(assignment.join(',')))          (hex, the published fingerprint)
//
// The odds are exact, not expected: the deck is the multiset of the published counts, shuffled.
// Pure TS on @noble/hashes, so the same code runs in Node and in the browser.
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils';

export const BOX_DRAW_ALGORITHM = 'box-shuffle-v1';

/** Largest deck this implementation draws (a release's supply). */
export const BOX_DRAW_MAX = 1_000_000;

function bytes32(hex: string, what: string): Uint8Array {
  const h = hex.startsWith('0x') ? hex.slice(2) : hex;
  if (!/^[0-9a-fA-F]{64}$/.test(h)) throw new TypeError(`${what} must be 32 bytes of hex`);
  return hexToBytes(h.toLowerCase());
}

/** The commitment published before the sale: sha256 of the 32 secret bytes, hex (no 0x). */
export function boxCommitment(serverSeedHex: string): string {
  return bytesToHex(sha256(bytes32(serverSeedHex, 'serverSeed')));
}

/** True when `serverSeedHex` opens `commitmentHex`. */
export function checkBoxCommitment(serverSeedHex: string, commitmentHex: string): boolean {
  try {
    return boxCommitment(serverSeedHex) === commitmentHex.replace(/^0x/, '').toLowerCase();
  } catch {
    return false;
  }
}

/** seed = sha256(serverSeed ‖ blockHash), hex (no 0x). */
export function boxDrawSeed(serverSeedHex: string, blockHashHex: string): string {
  return bytesToHex(sha256(concatBytes(bytes32(serverSeedHex, 'serverSeed'), bytes32(blockHashHex, 'blockHash'))));
}

/** The deterministic word stream of a seed. */
class WordStream {
  private block: Uint8Array = new Uint8Array(0);
  private pos = 0;
  private counter = 0n;
  constructor(private readonly seed: Uint8Array) {}
  next(): number {
    if (this.pos >= this.block.length) {
      const c = new Uint8Array(8);
      new DataView(c.buffer).setBigUint64(0, this.counter++, false);
      this.block = sha256(concatBytes(this.seed, c));
      this.pos = 0;
    }
    const w = new DataView(this.block.buffer, this.block.byteOffset + this.pos, 4).getUint32(0, false);
    this.pos += 4;
    return w;
  }
  below(m: number): number {
    const limit = Math.floor(0x1_0000_0000 / m) * m;
    for (;;) {
      const w = this.next();
      if (w < limit) return w % m;
    }
  }
}

/**
 * The assignment of kinds to box serials: element s − 1 is the kind index of box serial s.
 * `counts[k]` is how many boxes hold kind k (their sum is the supply).
 */
export function drawBoxAssignment(counts: readonly number[], serverSeedHex: string, blockHashHex: string): number[] {
  if (!Array.isArray(counts) || counts.length === 0) throw new TypeError('counts must be a non-empty array');
  let n = 0;
  for (const c of counts) {
    if (!Number.isSafeInteger(c) || c < 0) throw new TypeError('every count must be a whole number ≥ 0');
    n += c;
  }
  if (n < 1 || n > BOX_DRAW_MAX) throw new RangeError(`the counts must sum to 1..${BOX_DRAW_MAX}`);
  const deck: number[] = [];
  counts.forEach((c, k) => {
    for (let i = 0; i < c; i++) deck.push(k);
  });
  const stream = new WordStream(hexToBytes(boxDrawSeed(serverSeedHex, blockHashHex)));
  for (let i = n - 1; i >= 1; i--) {
    const j = stream.below(i + 1);
    const t = deck[i]!;
    deck[i] = deck[j]!;
    deck[j] = t;
  }
  return deck;
}

/** The published fingerprint of an assignment: sha256 of the kind indexes joined by commas, hex. */
export function boxAssignmentHash(assignment: readonly number[]): string {
  return bytesToHex(sha256(utf8ToBytes(assignment.join(','))));
}

export interface BoxProof {
  counts: readonly number[];
  commitment: string;
  serverSeed: string;
  blockHash: string;
  assignmentHash: string;
}

/** Recomputes a published proof: the seed opens the commitment and the draw gives the published hash. */
export function verifyBoxProof(p: BoxProof): { commitmentOk: boolean; assignmentOk: boolean; assignment: number[] | null } {
  const commitmentOk = checkBoxCommitment(p.serverSeed, p.commitment);
  let assignment: number[];
  try {
    assignment = drawBoxAssignment(p.counts, p.serverSeed, p.blockHash);
  } catch {
    return { commitmentOk, assignmentOk: false, assignment: null };
  }
  return { commitmentOk, assignmentOk: boxAssignmentHash(assignment) === p.assignmentHash.replace(/^0x/, '').toLowerCase(), assignment };
}
