import crypto from 'node:crypto';
import { Status } from '@cfx/contract/envelope.ts';
import { OrderPaths } from '@cfx/contract/routes.ts';
import { API_BASE } from '@cfx/contract/envelope.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import type { SandboxProvider } from '../../providers/payment/sandbox.ts';
import { inTx } from '../../db/tx.ts';
import { Account, postTxn } from '../ledger/index.ts';
import { newId } from '../market/index.ts';
import type { Notifier } from '../payout/index.ts';

/**
 * The sandbox provider's own pages. GET /payment/sandbox/cashier?t=<ticket> renders a small HTML
 * cashier (order, amount, countdown, 支付 / 取消); its buttons POST /payment/sandbox/confirm
 * {t, action}. 支付 records the sandbox trade (one per order) and the sandbox posts the signed
 * notify to the server's notify endpoint over HTTP; the page then returns to the shop's
 * return URL, where the web polls getNftOrderDetail until the order is paid.
 */
export function sandboxOf(ctx: AppContext): SandboxProvider {
  const s = ctx.market?.providers.sandbox;
  if (!s) throw new ApiError(Status.PAYMENT_REFUSED, 'payMethodUnavailable');
  return s;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export async function renderCashier(ctx: AppContext, t: string, nonce = ''): Promise<string> {
  const ticket = sandboxOf(ctx).openTicket(t, ctx.now());
  if (!ticket) throw new ApiError(Status.PAYMENT_REFUSED, 'cashierInvalid');
  const g = await ctx.db.kysely
    .selectFrom('orders')
    .leftJoin('goods', 'goods.id', 'orders.goods_id')
    .leftJoin('projects', 'projects.id', 'orders.project_id')
    .select(['goods.name', 'goods.serial', 'orders.status', 'projects.name as project_name', 'orders.quantity'])
    .where('orders.order_no', '=', ticket.orderNo)
    .executeTakeFirst();
  const confirmUrl = `${API_BASE}${OrderPaths.sandboxConfirm}`;
  const seconds = Math.max(0, Math.floor((ticket.expiresAt - ctx.now()) / 1000));
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>沙箱收银台</title>
<style>
body{margin:0;font-family:"PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif;background:#f4f5f7;color:#1f2329}
main{max-width:420px;margin:64px auto;background:#fff;border-radius:12px;padding:32px;box-shadow:0 4px 24px rgba(0,0,0,.08)}
h1{font-size:18px;margin:0 0 4px}.sub{color:#8a8f99;font-size:13px;margin:0 0 24px}
.amount{font-size:36px;font-weight:600;font-variant-numeric:tabular-nums;margin:8px 0 16px}
dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px;font-size:14px;margin:0 0 24px}dt{color:#8a8f99}dd{margin:0;word-break:break-all}
.row{display:flex;gap:12px}button{flex:1;height:44px;border-radius:8px;border:1px solid #d0d3d9;background:#fff;font-size:16px;cursor:pointer}
button.pay{background:#1677ff;border-color:#1677ff;color:#fff}button:disabled{opacity:.5;cursor:default}#msg{margin-top:16px;min-height:22px;font-size:14px}
</style></head><body><main>
<h1>沙箱收银台</h1><p class="sub">Sandbox cashier · 不会产生真实扣款 / no real money</p>
<div class="amount" id="amount">${esc(formatFen(ticket.amountFen))}</div>
<dl><dt>订单号</dt><dd id="orderNo">${esc(ticket.orderNo)}</dd><dt>商品</dt><dd>${esc(g?.name ? `${g.name} #${g.serial}` : g?.project_name ? `${g.project_name} ×${g.quantity}` : '-')}</dd><dt>剩余时间</dt><dd id="left" data-s="${seconds}"></dd></dl>
<div class="row"><button class="pay" id="pay">支付</button><button id="cancel">取消</button></div>
<div id="msg" role="status"></div>
</main>
<script nonce="${esc(nonce)}">
(function(){
  var t=${JSON.stringify(t)}, url=${JSON.stringify(confirmUrl)};
  var left=document.getElementById('left'), s=Number(left.dataset.s);
  function tick(){ if(s<=0){left.textContent='已超时';done(true);return;} left.textContent=Math.floor(s/60)+'分'+(s%60)+'秒'; s--; }
  tick(); var timer=setInterval(tick,1000);
  function done(off){ document.getElementById('pay').disabled=off; document.getElementById('cancel').disabled=off; if(off) clearInterval(timer); }
  function go(action){
    done(true);
    fetch(url,{method:'POST',headers:{'content-type':'application/json',channel:'pc'},body:JSON.stringify({t:t,action:action})})
      .then(function(r){return r.json();})
      .then(function(b){
        var m=document.getElementById('msg');
        if(b.status!=='000000'){ m.textContent=b.message||'失败'; return; }
        m.textContent = action==='pay' ? '支付成功，正在返回…' : '已取消，正在返回…';
        setTimeout(function(){ location.href=b.data.returnUrl; }, 1000);
      })
      .catch(function(){ document.getElementById('msg').textContent='网络错误'; done(false); });
  }
  document.getElementById('pay').onclick=function(){go('pay');};
  document.getElementById('cancel').onclick=function(){go('cancel');};
})();
</script></body></html>`;
}

/** The cashier's buttons. 支付: one sandbox trade per order, then its signed notify is delivered (with retries). */
export async function confirmCashier(ctx: AppContext, notifier: Notifier, t: string, action: 'pay' | 'cancel') {
  const sandbox = sandboxOf(ctx);
  const now = ctx.now();
  const ticket = sandbox.openTicket(t, now);
  if (!ticket) throw new ApiError(Status.PAYMENT_REFUSED, 'cashierInvalid');
  if (action === 'cancel') return { result: 'cancelled' as const, tradeNo: null, returnUrl: ticket.returnUrl };
  await ctx.db.kysely
    .insertInto('sandbox_trades')
    .values({ trade_no: newId('SBX', now), out_trade_no: ticket.orderNo, amount_fen: ticket.amountFen, status: 'success', created_at: now })
    .onConflict((oc) => oc.column('out_trade_no').doNothing())
    .execute();
  const trade = await ctx.db.kysely.selectFrom('sandbox_trades').selectAll().where('out_trade_no', '=', ticket.orderNo).executeTakeFirstOrThrow();
  void notifier.send(ticket.notifyUrl, sandbox.notifyParams({ tradeNo: trade.trade_no, orderNo: ticket.orderNo, amountFen: Number(trade.amount_fen) }, now));
  return { result: 'paid' as const, tradeNo: trade.trade_no, returnUrl: ticket.returnUrl };
}

/** Sandbox top-up of the platform balance (development and demos only). */
export async function sandboxTopup(ctx: AppContext, userId: number, amountFen: number) {
  sandboxOf(ctx);
  if (!Number.isSafeInteger(amountFen) || amountFen < 1 || amountFen > 100_000_000) {
    throw new ApiError(Status.INVALID, 'priceOutOfRange', { min: formatFen(1), max: formatFen(100_000_000) });
  }
  const now = ctx.now();
  await inTx(ctx, (trx) =>
    postTxn(trx, { id: `topup:sandbox:${crypto.randomUUID()}`, kind: 'topup', entries: [{ account: Account.external('sandbox'), amountFen: -amountFen }, { account: Account.user(userId), amountFen }], now }),
  );
}
