import crypto from 'node:crypto';
import { format, sign } from 'js-conflux-sdk';
import type { AppContext } from '../context.ts';
import type { SecretBox } from '../util/secret-box.ts';
import { listUnmintedGoods, markMinted } from '../modules/catalog/mint-queue.ts';

/**
 * Mints pending collectibles on chain through the operator queue, one `mint` per token with the
 * idempotency key `mint:goods:<id>`, so a restart can never mint a token twice. Demo users
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

export function startMintJob(ctx: AppContext, log: (msg: string, extra?: unknown) => void) {
  const chain = ctx.chain!;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const demoAddress = (userId: number) => format.address(sign.privateKeyToAddress(demoWalletKey(ctx.secrets, chain, userId)), chain.networkId);

  async function pass(): Promise<number> {
    const pending = await listUnmintedGoods(ctx, 500);
    if (pending.length === 0) return 0;
    const demoOwners = [...new Set(pending.filter((g) => !g.ownerWallet).map((g) => g.ownerUserId))];
    if (demoOwners.length) {
      const demo = await ctx.db.kysely.selectFrom('users').select('id').where('id', 'in', demoOwners).where('regist_channel', '=', 'demo').where('wallet_address', 'is', null).execute();
      for (const u of demo) {
        await ctx.db.kysely.updateTable('users').set({ wallet_address: demoAddress(Number(u.id)) }).where('id', '=', u.id).where('wallet_address', 'is', null).execute();
      }
    }
    const wallets = new Map(
      (await ctx.db.kysely.selectFrom('users').select(['id', 'wallet_address']).where('id', 'in', [...new Set(pending.map((g) => g.ownerUserId))]).execute())
        .map((u) => [Number(u.id), u.wallet_address]),
    );
    const jobs: { goodsId: number; txId: number; tokenId: string }[] = [];
    for (const g of pending) {
      const to = wallets.get(g.ownerUserId);
      if (!to) continue;
      const data = chain.contracts.collectible.mint(to, BigInt(g.tokenId)).data as string;
      jobs.push({ goodsId: g.id, tokenId: g.tokenId, txId: await chain.queue.enqueue({ key: `mint:goods:${g.id}`, kind: 'mint', to: chain.collectible, data }) });
    }
    let done = 0;
    for (const j of jobs) {
      const row = await chain.queue.waitFor(j.txId, 600_000);
      if (row.status === 'confirmed') {
        done += await markMinted(ctx, [j.goodsId], { contract: chain.collectible, txHash: row.tx_hash ?? undefined });
      } else if (await chain.contracts.collectible.exists(BigInt(j.tokenId)).catch(() => false)) {
        // Minted by an earlier attempt: the token is there.
        done += await markMinted(ctx, [j.goodsId], { contract: chain.collectible });
      } else {
        log('mint failed', { goodsId: j.goodsId, error: row.error });
      }
    }
    return done;
  }

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass()
        .then((n) => {
          if (n) log(`minted ${n} collectibles`);
          schedule(n ? 0 : 1500);
        })
        .catch((err) => {
          log('mint job pass failed', { err: String(err) });
          schedule(5000);
        });
    }, ms);
  };
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
