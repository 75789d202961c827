import crypto from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import { format, sign } from 'js-conflux-sdk';
import { toHexAddress } from '@cfx/protocol/address.ts';
import type { AppContext } from '../context.ts';
import type { SecretBox } from '../util/secret-box.ts';
import { listUnmintedGoods } from '../modules/catalog/index.ts';
import { mintPendingGoods, onMintWanted, type Minter, type MintOutcome } from '../modules/drops/index.ts';
import type { Chain } from './chain-service.ts';
import type { Db } from '../db/database.ts';
import { keyList } from '../db/key-list.ts';

/**
 * Mints pending collectibles on chain through the operator queue, in `mintBatch` transactions of
 * up to MINT_BATCH_SIZE tokens with one idempotency key per batch (modules/drops/mint-batches.ts);
 * the contract refuses an existing token id, so a restart can never mint a token twice. Demo users
 * (regist_channel 'demo') get a deterministic dev wallet derived from the operator key; anyone
 * else needs a linked wallet first.
 */
/**
 * The dev key of a demo user's wallet (dev chain only). Its seed is a keyed hash under the
 * server's random data key (DATA_DIR/data.key or DATA_ENCRYPTION_KEY), so the keys are random per
 * installation and known only to the server — never derivable from public facts.
 */
export function demoWalletKey(secrets: Pick<SecretBox, 'digest'>, chain: { operatorAddress: string }, userId: number): Buffer {
  const seed = Buffer.from(secrets.digest(`demo-wallets:${chain.operatorAddress}`), 'hex');
  return crypto.createHmac('sha256', seed).update(String(userId)).digest();
}

/** The key of data directories made before demo keys were sealed (public seed): used only to keep their old demo listings working. */
export function legacyDemoWalletKey(chain: { operatorAddress: string }, userId: number): Buffer {
  const seed = crypto.createHash('sha256').update(`demo-wallets:${chain.operatorAddress}`).digest();
  return crypto.createHmac('sha256', seed).update(String(userId)).digest();
}

/** The real Minter: `Collectible.mintBatch(to[], ids[])` (or `mint(to, id)` for one) on the operator's durable queue. */
export function chainMinter(chain: Chain, db: Db): Minter {
  return {
    contract: chain.collectible,
    async submit(key, to, tokenIds) {
      const c = chain.contracts.collectible;
      // Hex through @cfx/protocol's memo: the SDK would decode each base32 owner again, and the memo
      // already holds the owner's base32 for the indexer, which meets it again in the Transfer log.
      const owners = to.map(toHexAddress);
      const data = (owners.length === 1 ? c.mint(owners[0], BigInt(tokenIds[0]!)) : c.mintBatch(owners, tokenIds.map((t) => BigInt(t)))).data as string;
      return chain.queue.enqueue({ key, kind: 'mint', to: chain.collectible, data });
    },
    async outcomes(txIds, timeoutMs) {
      const out = new Map<number, MintOutcome>();
      const deadline = Date.now() + timeoutMs;
      let left = [...new Set(txIds)];
      while (left.length) {
        for (let i = 0; i < left.length; i += 500) {
          const rows = await db.kysely.selectFrom('chain_txs').select(['id', 'status', 'tx_hash', 'error']).where('id', 'in', keyList({ db }, left.slice(i, i + 500))).execute();
          for (const r of rows) {
            if (r.status === 'confirmed' || r.status === 'failed') out.set(Number(r.id), { state: r.status, txHash: r.tx_hash, error: r.error });
          }
        }
        left = left.filter((id) => !out.has(id));
        if (!left.length || Date.now() > deadline) break;
        // Woken by the queue when any transaction is done, else look again in 250 ms.
        await new Promise<void>((resolve) => {
          const t = setTimeout(done, 250);
          const off = chain.queue.onDone(() => done());
          function done() {
            clearTimeout(t);
            off();
            resolve();
          }
        });
      }
      for (const id of left) out.set(id, { state: 'pending', txHash: null, error: null });
      return out;
    },
    async ownerOf(tokenId) {
      const c = chain.contracts.collectible;
      if (!((await c.exists(BigInt(tokenId))) as boolean)) return null;
      return String(await c.ownerOf(BigInt(tokenId)));
    },
  };
}

/**
 * The mint loop of this process: gives demo users their dev wallet, then runs batched passes
 * (modules/drops/mint-batches.ts) — at once while there is work, every 1.5 s when idle, and at once
 * when a fulfilment created collectibles (wakeMinting).
 */
export function startMintJob(ctx: AppContext, log: (msg: string, extra?: unknown) => void) {
  const chain = ctx.chain!;
  const minter = chainMinter(chain, ctx.db);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let busy = false;
  let again = false;
  // Passes run in the context the job started in (the worker role's, db.asWorker), also when a
  // fulfilment in a request's context asked for one.
  const inStartContext = AsyncLocalStorage.snapshot();
  const demoAddress = (userId: number) => format.address(sign.privateKeyToAddress(demoWalletKey(ctx.secrets, chain, userId)), chain.networkId);

  async function pass(): Promise<number> {
    const pending = await listUnmintedGoods(ctx, 5000);
    if (pending.length === 0) return 0;
    const demoOwners = [...new Set(pending.filter((g) => !g.ownerWallet).map((g) => g.ownerUserId))];
    if (demoOwners.length) {
      const demo = await ctx.db.kysely.selectFrom('users').select('id').where('id', 'in', demoOwners).where('regist_channel', '=', 'demo').where('wallet_address', 'is', null).execute();
      for (const u of demo) {
        await ctx.db.kysely.updateTable('users').set({ wallet_address: demoAddress(Number(u.id)) }).where('id', '=', u.id).where('wallet_address', 'is', null).execute();
      }
    }
    return mintPendingGoods(ctx, minter, { limit: 5000, log });
  }

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      busy = true;
      running = inStartContext(pass)
        .then((n) => {
          if (n) log(`minted ${n} collectibles`);
          busy = false;
          schedule(n || again ? 0 : 1500);
          again = false;
        })
        .catch((err) => {
          busy = false;
          log('mint job pass failed', { err: String(err) });
          schedule(5000);
        });
    }, ms);
  };
  onMintWanted(ctx, () => {
    if (busy) again = true;
    else schedule(0);
  });
  schedule(0);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      // A pass waiting on the queue ends when the queue stops; do not hold shutdown for it.
      await Promise.race([running?.catch(() => {}), new Promise((r) => setTimeout(r, 2000))]);
    },
  };
}
