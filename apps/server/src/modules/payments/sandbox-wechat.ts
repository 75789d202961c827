import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE, Status } from '@cfx/contract/envelope.ts';
import * as M from '@cfx/contract/market.ts';
import { OrderPaths } from '@cfx/contract/routes.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import type { AppContext } from '../../context.ts';
import { ApiError, ok } from '../../http/envelope.ts';
import { WECHAT_SANDBOX_TRADE_PREFIX, type WechatSandbox } from '../../providers/payment/wechat-sandbox.ts';
import { newId } from '../market/index.ts';

/**
 * The WeChat Pay sandbox's "phone" (PAYMENT_SANDBOX=1 only): the page its code_url opens
 * (GET /payment/sandbox/wechat/scan?t=, what scanning the QR code shows) and its 确认支付 button
 * (POST /payment/sandbox/wechat/pay {t}). Paying records one sandbox trade per order and posts the
 * signed, encrypted notify to /mvapi/notify/wechat over HTTP (through inject when the server has no
 * socket), where it is verified like WeChat Pay's own; the buyer's PC page sees the order paid by polling.
 */
function wechatSandboxOf(ctx: AppContext): WechatSandbox {
  const w = ctx.market?.providers.wechat;
  if (!w || !('openTicket' in w)) throw new ApiError(Status.PAYMENT_REFUSED, 'payMethodUnavailable');
  return w as WechatSandbox;
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function renderWechatScan(ctx: AppContext, t: string, nonce = ''): string {
  const ticket = wechatSandboxOf(ctx).openTicket(t, ctx.now());
  if (!ticket) throw new ApiError(Status.PAYMENT_REFUSED, 'cashierInvalid');
  const payUrl = `${API_BASE}${OrderPaths.sandboxWechatPay}`;
  const seconds = Math.max(0, Math.floor((ticket.expiresAt - ctx.now()) / 1000));
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>微信支付（沙箱）</title>
<style>
body{margin:0;font-family:"PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif;background:#ededed;color:#1f2329}
main{max-width:420px;margin:48px auto;background:#fff;border-radius:12px;padding:32px;text-align:center}
h1{font-size:17px;margin:0 0 4px}.sub{color:#8a8f99;font-size:13px;margin:0 0 16px}
.amount{font-size:40px;font-weight:600;font-variant-numeric:tabular-nums;margin:8px 0 16px}
dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px;font-size:14px;margin:0 0 24px;text-align:left}dt{color:#8a8f99}dd{margin:0;word-break:break-all}
button{width:100%;height:46px;border-radius:8px;border:0;background:#07c160;color:#fff;font-size:17px;cursor:pointer}button:disabled{opacity:.5;cursor:default}
#msg{margin-top:16px;min-height:22px;font-size:14px}
</style></head><body><main>
<h1>微信支付（沙箱）</h1><p class="sub">WeChat Pay sandbox · 不会产生真实扣款 / no real money</p>
<div class="amount" id="amount">${esc(formatFen(ticket.amountFen))}</div>
<dl><dt>订单号</dt><dd id="orderNo">${esc(ticket.orderNo)}</dd><dt>剩余时间</dt><dd id="left" data-s="${seconds}"></dd></dl>
<button id="pay">确认支付</button>
<div id="msg" role="status"></div>
</main>
<script nonce="${esc(nonce)}">
(function(){
  var t=${JSON.stringify(t)}, url=${JSON.stringify(payUrl)};
  var left=document.getElementById('left'), s=Number(left.dataset.s), btn=document.getElementById('pay'), m=document.getElementById('msg');
  function tick(){ if(s<=0){left.textContent='已超时';btn.disabled=true;clearInterval(timer);return;} left.textContent=Math.floor(s/60)+'分'+(s%60)+'秒'; s--; }
  var timer=setInterval(tick,1000); tick();
  btn.onclick=function(){
    btn.disabled=true;
    fetch(url,{method:'POST',headers:{'content-type':'application/json',channel:'pc'},body:JSON.stringify({t:t})})
      .then(function(r){return r.json();})
      .then(function(b){
        if(b.status!=='000000'){ m.textContent=b.message||'支付失败'; btn.disabled=false; return; }
        clearInterval(timer);
        m.textContent = b.data.result==='paid' ? '支付成功，请回到电脑上的页面' : '已扣款，通知发送中…';
      })
      .catch(function(){ m.textContent='网络错误'; btn.disabled=false; });
  };
})();
</script></body></html>`;
}

/** Posts one notify as WeChat Pay does; true when the server answered 200 or 204. */
async function post(app: FastifyInstance, url: string, n: { headers: Record<string, string>; body: string }): Promise<boolean> {
  try {
    if (/^https?:\/\//.test(url)) {
      const res = await fetch(url, { method: 'POST', headers: n.headers, body: n.body, signal: AbortSignal.timeout(10_000) });
      await res.arrayBuffer();
      return res.status === 200 || res.status === 204;
    }
    const res = await app.inject({ method: 'POST', url, headers: n.headers, payload: n.body });
    return res.statusCode === 200 || res.statusCode === 204;
  } catch {
    return false;
  }
}

/** 确认支付: one sandbox trade per order, then its notify (three tries; reconciliation finds the trade otherwise). */
export async function payWechatScan(app: FastifyInstance, ctx: AppContext, t: string) {
  const sandbox = wechatSandboxOf(ctx);
  const now = ctx.now();
  const ticket = sandbox.openTicket(t, now);
  if (!ticket) throw new ApiError(Status.PAYMENT_REFUSED, 'cashierInvalid');
  await ctx.db.kysely
    .insertInto('sandbox_trades')
    .values({ trade_no: newId(WECHAT_SANDBOX_TRADE_PREFIX, now), out_trade_no: ticket.orderNo, amount_fen: ticket.amountFen, status: 'success', created_at: now })
    .onConflict((oc) => oc.column('out_trade_no').doNothing())
    .execute();
  const trade = await ctx.db.kysely.selectFrom('sandbox_trades').selectAll().where('out_trade_no', '=', ticket.orderNo).executeTakeFirstOrThrow();
  // The order was paid through the other sandbox cashier already.
  if (!trade.trade_no.startsWith(WECHAT_SANDBOX_TRADE_PREFIX)) throw new ApiError(Status.PAYMENT_REFUSED, 'cashierInvalid');
  const resource = sandbox.transaction({ orderNo: ticket.orderNo, tradeNo: trade.trade_no, amountFen: Number(trade.amount_fen) }, now);
  for (const wait of [0, 300, 1000]) {
    if (wait) await new Promise((r) => setTimeout(r, wait));
    if (await post(app, ticket.notifyUrl, sandbox.signedNotify('TRANSACTION.SUCCESS', 'transaction', resource, now))) return { result: 'paid' as const, tradeNo: trade.trade_no };
  }
  return { result: 'notifyFailed' as const, tradeNo: trade.trade_no };
}

/** The sandbox phone's routes (registered with the sandbox cashier's, PAYMENT_SANDBOX=1 only). */
export function sandboxWechatRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['payments'];
  r.get(OrderPaths.sandboxWechatScan, { schema: { hide: true, tags, querystring: M.sandboxCashierQuery } }, async (req, reply) => {
    const html = renderWechatScan(ctx, req.query.t, reply.scriptNonce);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  });
  r.post(OrderPaths.sandboxWechatPay, { schema: { hide: true, tags, body: M.sandboxWechatPayBody, response: { 200: M.sandboxWechatPayResponse } } }, async (req) => {
    const res = await payWechatScan(app, ctx, req.body.t);
    return ok(req, res, res.result === 'paid' ? 'paySucceeded' : 'ok');
  });
}
