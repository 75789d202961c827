import { format, sign, Transaction } from 'js-conflux-sdk';
import { signListOrder } from '@cfx/contracts/src/order-signature.ts';
import type { AppContext } from '../context.ts';
import { checkDigit, maskIdNumber, maskName } from '../modules/kyc/index.ts';
import { openSale } from '../modules/market/index.ts';
import { preOpenSale } from '../modules/market/index.ts';
import { demoWalletKey, legacyDemoWalletKey } from './mint-job.ts';
import { createRpc } from './rpc.ts';

/**
 * Dev chain only: the demo sellers put their demo "on sale" collectibles on the market for real,
 * exactly as a person would — cancel any earlier signed order still open on chain (normally none),
 * approve the exchange for the token from their own (deterministic dev) wallet, sign the CIP-23
 * listOrder, openSale — so every listing a newcomer sees can be
 * bought and settles on chain. Demo users get a demo real-name record so the trading gate admits them.
 */
export function startDemoMarket(ctx: AppContext, log: (msg: string, extra?: unknown) => void) {
  const chain = ctx.chain!;
  const rpc = createRpc(chain.rpcUrl);
  /** The demo user's wallet key: the sealed-seed key, or the legacy one for a wallet made before it. */
  const demoKeyFor = (userId: number, wallet: string): Buffer => {
    const key = demoWalletKey(ctx.secrets, chain, userId);
    const addr = (k: Buffer) => format.address(sign.privateKeyToAddress(k), chain.networkId);
    if (addr(key) === wallet) return key;
    const legacy = legacyDemoWalletKey(chain, userId);
    return addr(legacy) === wallet ? legacy : key;
  };
  const skip = new Set<number>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  async function ensureDemoRealname(userId: number) {
    const has = await ctx.db.kysely.selectFrom('realname').select('user_id').where('user_id', '=', userId).executeTakeFirst();
    if (has) return;
    const first17 = `11010119000101${String(userId % 1000).padStart(3, '0')}`;
    const id = first17 + checkDigit(first17);
    const name = '演示用户';
    await ctx.db.kysely
      .insertInto('realname')
      .values({ user_id: userId, name_sealed: ctx.secrets.seal(name), id_sealed: ctx.secrets.seal(id), id_digest: ctx.secrets.digest(`demo:${id}`), id_masked: maskIdNumber(id), name_masked: maskName(name), birth_sealed: ctx.secrets.seal('1990-01-01'), adult: 1, provider: 'demo', verified_at: ctx.now() })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /** One sponsored transaction from the demo wallet, waited for (what the seller's wallet does in the web flow). */
  async function send(key: Buffer, from: string, to: string, data: string, what: string) {
    const [nonce, epoch, est] = await Promise.all([
      rpc.call<string>('cfx_getNextNonce', [from]),
      rpc.call<string>('cfx_epochNumber', ['latest_state']),
      rpc.call<{ gasLimit: string; storageCollateralized: string }>('cfx_estimateGasAndCollateral', [{ from, to, data }, 'latest_state']),
    ]);
    const tx = new Transaction({ from, to, nonce, gasPrice: 1_000_000_000, gas: est.gasLimit, storageLimit: BigInt(est.storageCollateralized) + 256n, epochHeight: epoch, chainId: chain.networkId, value: 0, data } as any);
    tx.sign(format.hex(key), chain.networkId);
    const hash = await rpc.call<string>('cfx_sendRawTransaction', [format.hex(tx.serialize() as any)]);
    for (let i = 0; i < 100; i++) {
      const receipt = await rpc.call<{ outcomeStatus: string } | null>('cfx_getTransactionReceipt', [hash]);
      if (receipt) {
        if (Number(receipt.outcomeStatus) !== 0) throw new Error(`${what} reverted (${hash})`);
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${what} not confirmed (${hash})`);
  }

  const approve = (key: Buffer, from: string, tokenId: string) =>
    send(key, from, chain.collectible, chain.contracts.collectible.approve(chain.exchange, BigInt(tokenId)).data as string, 'approve');
  const cancelOrder = (key: Buffer, from: string, sellerOrderId: string) =>
    send(key, from, chain.exchange, chain.contracts.exchange.cancelOrder(sellerOrderId).data as string, 'cancelOrder');

  async function pass(): Promise<number> {
    const rows = await ctx.db.kysely
      .selectFrom('goods')
      .innerJoin('users', 'users.id', 'goods.owner_user_id')
      .select(['goods.id', 'goods.owner_user_id', 'goods.sale_price_fen', 'users.wallet_address'])
      .where('goods.status', '=', 'on_sale')
      .where('goods.chain_status', '=', 'minted')
      .where('users.regist_channel', '=', 'demo')
      .where('users.wallet_address', 'is not', null)
      .where((e) => e.not(e.exists(e.selectFrom('listings').select('listings.id').whereRef('listings.goods_id', '=', 'goods.id').where('listings.status', 'in', ['on_sale', 'reserved', 'sold']))))
      .orderBy('goods.id')
      .limit(50)
      .execute();
    let listed = 0;
    for (const g of rows) {
      const goodsId = Number(g.id);
      if (skip.has(goodsId) || stopped) continue;
      const userId = Number(g.owner_user_id);
      try {
        await ensureDemoRealname(userId);
        const key = demoKeyFor(userId, g.wallet_address!);
        const price = Number(g.sale_price_fen);
        const pre = await preOpenSale(ctx, userId, { goodsId, price }, 'zh');
        // Normally nothing: a demo collectible is listed once. An earlier signed order left open
        // (e.g. an openSale that failed after signing, before a restart) is cancelled first, as
        // the web flow does — openSale refuses (1019) otherwise.
        for (const id of pre.pendingCancels) await cancelOrder(key, g.wallet_address!, id);
        if (!pre.approved) await approve(key, g.wallet_address!, pre.tokenId);
        const domain = ctx.market!.settlement!.domain();
        const signature = signListOrder(format.hex(key), { seller: pre.seller, nftToken: pre.collectibleHex, tokenId: pre.tokenId, amount: pre.priceFen, sellerOrderId: pre.sellerOrderId }, domain);
        await openSale(ctx, userId, { goodsId, price, sellerOrderId: pre.sellerOrderId, signature });
        listed++;
      } catch (err) {
        skip.add(goodsId);
        log('demo listing skipped', { goodsId, err: String((err as Error).message ?? err) });
      }
    }
    return listed;
  }

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      pass()
        .then((n) => {
          if (n) log(`demo sellers listed ${n} collectibles`);
          schedule(n ? 0 : 3000);
        })
        .catch((err) => {
          log('demo market pass failed', { err: String(err) });
          schedule(5000);
        });
    }, ms);
  };
  schedule(1000);
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
