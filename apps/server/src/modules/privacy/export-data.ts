import { API_BASE, Status } from '@cfx/contract/envelope.ts';
import { SecurityPaths } from '@cfx/contract/routes.ts';
import { SmsType } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import { inTx, lockKey } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { maskMobile, randomToken, sha256 } from '../../util/crypto.ts';
import { deviceSummary, type ClientMeta } from '../accounts/index.ts';
import { checkSmsCode } from '../accounts/index.ts';
import { findUserById } from '../accounts/index.ts';
import { recordSecurityEvent } from '../accounts/index.ts';
import { consumeSmsCode } from '../accounts/index.ts';
import { Account } from '../ledger/index.ts';
import { messageView } from '../messages/index.ts';
import { readPrivacySettings } from './privacy-settings.ts';

/** Rows per list in one export (a list that reaches it says so with `truncated`). */
export const EXPORT_LIST_MAX = 10_000;
const HOUR_MS = 3600_000;

/**
 * export/apply {smsCode?}: a download link of the caller's personal data (PIPL right of access and
 * portability), once per EXPORT interval (24 h; 1006 otherwise). Without a code the real-name data
 * is exported masked, as the site shows it; with a fresh security code (type 4, sent to the own
 * phone) the owner's full name, ID number and birth date are included — a stolen session alone
 * never yields the ID number. The link (random token, stored hashed) is valid 15 minutes and may be
 * used several times within them; each download is written to the security log. Nothing is
 * stored: the JSON is built from the live data at download time.
 */
export async function requestExport(ctx: AppContext, userId: number, input: { smsCode?: string | null }, meta: ClientMeta) {
  const user = await findUserById(ctx, userId);
  if (!user || user.cancelled_at !== null) throw new ApiError(Status.SESSION_LOST, 'sessionLost');
  const { exportIntervalMs, exportLinkTtlMs } = ctx.config.privacy;
  const tooSoon = () => new ApiError(Status.RATE_LIMITED, 'exportTooSoon', { h: Math.round(exportIntervalMs / HOUR_MS) });
  const recent = (q: typeof ctx.db.kysely, now: number) =>
    q.selectFrom('data_exports').select('id').where('user_id', '=', userId).where('created_at', '>', now - exportIntervalMs).executeTakeFirst();
  if (await recent(ctx.db.kysely, ctx.now())) throw tooSoon();
  const includeId = Boolean(input.smsCode);
  if (includeId) await consumeSmsCode(ctx, user.mobile, SmsType.SECURITY, checkSmsCode(input.smsCode));
  const token = randomToken(32);
  const now = ctx.now();
  const expiresAt = now + exportLinkTtlMs;
  await inTx(ctx, async (trx) => {
    await lockKey(ctx, trx, `export:${userId}`);
    if (await recent(trx, now)) throw tooSoon();
    await trx.insertInto('data_exports').values({ user_id: userId, token_hash: sha256(token), include_id: includeId ? 1 : 0, created_at: now, expires_at: expiresAt }).execute();
    await recordSecurityEvent(trx, { userId, kind: 'export_requested', meta, detail: { includesIdNumber: includeId }, at: now });
  });
  return {
    downloadUrl: `${API_BASE}${SecurityPaths.exportDownload}?t=${encodeURIComponent(token)}`,
    expiresAt,
    includesIdNumber: includeId,
    minutes: Math.round(exportLinkTtlMs / 60_000),
  };
}

/** export/download?t=: the export as a JSON attachment (1001 for an unknown or expired link). */
export async function downloadExport(ctx: AppContext, t: string | undefined, meta: ClientMeta) {
  const now = ctx.now();
  const row = t
    ? await ctx.db.kysely.selectFrom('data_exports').select(['id', 'user_id', 'include_id']).where('token_hash', '=', sha256(t)).where('expires_at', '>', now).executeTakeFirst()
    : undefined;
  if (!row) throw new ApiError(Status.INVALID, 'exportLinkInvalid', {}, 404);
  const userId = Number(row.user_id);
  const data = await buildExport(ctx, userId, Number(row.include_id) === 1);
  if (!data) throw new ApiError(Status.INVALID, 'exportLinkInvalid', {}, 404);
  await inTx(ctx, async (trx) => {
    await trx.updateTable('data_exports').set((e) => ({ downloads: e('downloads', '+', 1) })).where('id', '=', row.id).execute();
    await recordSecurityEvent(trx, { userId, kind: 'export_downloaded', meta, at: now });
  });
  const day = new Date(now + 8 * HOUR_MS).toISOString().slice(0, 10).replaceAll('-', '');
  return { fileName: `cfx-art-personal-data-${data.account.accountId}-${day}.json`, json: JSON.stringify(data, null, 2) };
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
function parseJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
function list<T>(rows: T[]) {
  return { truncated: rows.length >= EXPORT_LIST_MAX, items: rows };
}

/**
 * Everything we hold about one user, and nothing about anyone else: counterparties of orders,
 * deals and bids are left out (only the user's own role, amounts and ids of our own rows).
 * Undefined when the account is gone (cancelled).
 */
export async function buildExport(ctx: AppContext, userId: number, includeId: boolean) {
  const k = ctx.db.kysely;
  const user = await findUserById(ctx, userId);
  if (!user || user.cancelled_at !== null) return undefined;
  const L = EXPORT_LIST_MAX;
  const [profpic, inviter, invitedCount, realname, privacy, sessions, events, goods, favourites, searches, orders, bids, deals, ledger, listings, uploads, applications, cancellations, exportsLog] =
    await Promise.all([
      k.selectFrom('profpics').select('url').where('id', '=', user.profpic_id).executeTakeFirst(),
      user.invited_by === null ? undefined : k.selectFrom('users').select('account_id').where('id', '=', user.invited_by).executeTakeFirst(),
      k.selectFrom('users').select((e) => e.fn.countAll<number>().as('n')).where('invited_by', '=', userId).executeTakeFirstOrThrow(),
      k.selectFrom('realname').selectAll().where('user_id', '=', userId).executeTakeFirst(),
      readPrivacySettings(ctx, userId),
      k.selectFrom('sessions').select(['user_agent', 'ip', 'created_at', 'last_seen_at', 'expires_at', 'revoked_at']).where('user_id', '=', userId).orderBy('created_at', 'desc').limit(L).execute(),
      k.selectFrom('security_events').select(['kind', 'ip', 'user_agent', 'detail', 'created_at']).where('user_id', '=', userId).orderBy('id', 'desc').limit(L).execute(),
      k
        .selectFrom('goods')
        .innerJoin('projects', 'projects.id', 'goods.project_id')
        .select(['goods.id', 'goods.name', 'goods.serial', 'projects.name as project_name', 'goods.token_id', 'goods.contract', 'goods.chain_status', 'goods.status', 'goods.acquired_at'])
        .where('goods.owner_user_id', '=', userId)
        .orderBy('goods.id')
        .limit(L)
        .execute(),
      k
        .selectFrom('favorites')
        .innerJoin('goods', 'goods.id', 'favorites.goods_id')
        .select(['favorites.goods_id', 'goods.name', 'favorites.created_at'])
        .where('favorites.user_id', '=', userId)
        .orderBy('favorites.created_at', 'desc')
        .limit(L)
        .execute(),
      k.selectFrom('search_history').select(['kw', 'created_at']).where('user_id', '=', userId).orderBy('created_at', 'desc').limit(L).execute(),
      k
        .selectFrom('orders')
        .select([
          'order_no', 'kind', 'buyer_user_id', 'goods_id', 'project_id', 'quantity', 'unit_price_fen', 'buyer_address', 'price_fen', 'commission_fen',
          'royalty_fen', 'seller_income_fen', 'status', 'pay_method', 'created_at', 'paid_at', 'completed_at', 'closed_at', 'tx_hash',
        ])
        .where((e) => e.or([e('buyer_user_id', '=', userId), e('seller_user_id', '=', userId)]))
        .orderBy('id', 'desc')
        .limit(L)
        .execute(),
      k.selectFrom('bids').select(['id', 'goods_id', 'amount_fen', 'status', 'expires_at', 'order_no', 'created_at']).where('bidder_user_id', '=', userId).orderBy('id', 'desc').limit(L).execute(),
      k
        .selectFrom('deals')
        .select(['order_no', 'goods_id', 'buyer_user_id', 'price_fen', 'commission_fen', 'royalty_fen', 'tx_hash', 'created_at'])
        .where((e) => e.or([e('buyer_user_id', '=', userId), e('seller_user_id', '=', userId)]))
        .orderBy('id', 'desc')
        .limit(L)
        .execute(),
      k
        .selectFrom('ledger_entries')
        .innerJoin('ledger_txns', 'ledger_txns.id', 'ledger_entries.txn_id')
        .select(['ledger_entries.txn_id', 'ledger_txns.kind', 'ledger_txns.order_no', 'ledger_entries.amount_fen', 'ledger_entries.created_at'])
        .where('ledger_entries.account', '=', Account.user(userId))
        .orderBy('ledger_entries.id', 'desc')
        .limit(L)
        .execute(),
      k
        .selectFrom('listings')
        .select(['goods_id', 'kind', 'price_fen', 'status', 'seller_address', 'created_at', 'listed_at', 'closed_at', 'close_reason'])
        .where('seller_user_id', '=', userId)
        .where('status', '<>', 'void')
        .orderBy('id', 'desc')
        .limit(L)
        .execute(),
      k.selectFrom('uploads').select(['key', 'kind', 'content_type', 'size', 'original_name', 'created_at']).where('user_id', '=', userId).orderBy('id', 'desc').limit(L).execute(),
      k
        .selectFrom('settled_applications')
        .select(['id', 'project_name', 'creator_name', 'category', 'description', 'supply', 'price_fen', 'contact_name', 'mobile', 'email', 'status', 'reject_reason', 'created_at', 'updated_at'])
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(L)
        .execute(),
      k.selectFrom('account_cancellations').select(['status', 'requested_at', 'effective_at', 'closed_at']).where('user_id', '=', userId).orderBy('id', 'desc').limit(L).execute(),
      k.selectFrom('data_exports').select(['include_id', 'downloads', 'created_at', 'expires_at']).where('user_id', '=', userId).orderBy('id', 'desc').limit(L).execute(),
    ]);

  const [cards, payoutAccount, idPhotos, withdrawals, refunds, messages, messageSettings, reminders, follows, moments, tickets, invitees, lotteryEntries, whitelist, composes, transfers, boxOpenings, merchant, split] =
    await Promise.all([
      k.selectFrom('payout_cards').select(['bank_name', 'card_masked', 'mobile_masked', 'status', 'bound_at', 'ended_at']).where('user_id', '=', userId).orderBy('id', 'desc').limit(L).execute(),
      k.selectFrom('payout_accounts').select(['provider', 'state', 'merchant_no', 'province_code', 'city_code', 'address_sealed', 'reject_reason', 'opened_at', 'created_at']).where('user_id', '=', userId).executeTakeFirst(),
      k.selectFrom('payout_identity').select(['side', 'created_at']).where('user_id', '=', userId).orderBy('side').execute(),
      k
        .selectFrom('payout_withdrawals')
        .select(['withdraw_no', 'amount_fen', 'fee_fen', 'net_fen', 'status', 'fail_reason', 'bank_name', 'card_masked', 'created_at', 'finished_at'])
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .limit(L)
        .execute(),
      k.selectFrom('stray_refunds').select(['refund_no', 'order_no', 'provider', 'amount_fen', 'status', 'automatic', 'fail_reason', 'created_at', 'finished_at']).where('user_id', '=', userId).orderBy('id', 'desc').limit(L).execute(),
      k.selectFrom('messages').select(['id', 'kind', 'title_key', 'body_key', 'params', 'link', 'read_at', 'created_at']).where('user_id', '=', userId).orderBy('id', 'desc').limit(L).execute(),
      k.selectFrom('message_settings').select(['kind', 'in_app', 'sms', 'updated_at']).where('user_id', '=', userId).orderBy('kind').execute(),
      k
        .selectFrom('drop_reminders')
        .innerJoin('projects', 'projects.id', 'drop_reminders.project_id')
        .select(['drop_reminders.project_id', 'projects.name', 'drop_reminders.created_at', 'drop_reminders.notified_at'])
        .where('drop_reminders.user_id', '=', userId)
        .orderBy('drop_reminders.created_at', 'desc')
        .limit(L)
        .execute(),
      k
        .selectFrom('follows')
        .innerJoin('creators', 'creators.id', 'follows.creator_id')
        .select(['follows.creator_id', 'creators.name', 'follows.created_at'])
        .where('follows.user_id', '=', userId)
        .orderBy('follows.created_at', 'desc')
        .limit(L)
        .execute(),
      k.selectFrom('creator_moments').select(['id', 'creator_id', 'content_text', 'image_count', 'created_at', 'deleted_at']).where('author_user_id', '=', userId).orderBy('id', 'desc').limit(L).execute(),
      k.selectFrom('tickets').select(['id', 'category', 'subject', 'order_no', 'status', 'created_at', 'closed_at']).where('user_id', '=', userId).orderBy('id', 'desc').limit(L).execute(),
      k.selectFrom('users').select(['mobile', 'nickname', 'created_at', 'is_realname']).where('invited_by', '=', userId).orderBy('created_at', 'desc').limit(L).execute(),
      k
        .selectFrom('drop_lottery_entries')
        .innerJoin('projects', 'projects.id', 'drop_lottery_entries.project_id')
        .select(['drop_lottery_entries.project_id', 'projects.name', 'drop_lottery_entries.entry_no', 'drop_lottery_entries.won', 'drop_lottery_entries.created_at'])
        .where('drop_lottery_entries.user_id', '=', userId)
        .orderBy('drop_lottery_entries.created_at', 'desc')
        .limit(L)
        .execute(),
      k
        .selectFrom('drop_whitelist')
        .innerJoin('projects', 'projects.id', 'drop_whitelist.project_id')
        .select(['drop_whitelist.project_id', 'projects.name', 'drop_whitelist.quota', 'drop_whitelist.created_at'])
        .where('drop_whitelist.user_id', '=', userId)
        .orderBy('drop_whitelist.created_at', 'desc')
        .limit(L)
        .execute(),
      k
        .selectFrom('compose_records')
        .innerJoin('compose_rules', 'compose_rules.id', 'compose_records.rule_id')
        .select(['compose_records.compose_no', 'compose_rules.name', 'compose_records.goods_ids', 'compose_records.result_token_id', 'compose_records.result_goods_id', 'compose_records.status', 'compose_records.owner_address', 'compose_records.tx_hash', 'compose_records.created_at'])
        .where('compose_records.user_id', '=', userId)
        .orderBy('compose_records.id', 'desc')
        .limit(L)
        .execute(),
      k
        .selectFrom('goods_transfers')
        .select(['transfer_no', 'kind', 'goods_id', 'token_id', 'from_user_id', 'to_user_id', 'from_address', 'to_address', 'status', 'tx_hash', 'created_at', 'done_at'])
        .where((e) => e.or([e('from_user_id', '=', userId), e('to_user_id', '=', userId)]))
        .orderBy('id', 'desc')
        .limit(L)
        .execute(),
      k.selectFrom('box_openings').select(['goods_id', 'project_id', 'status', 'item_goods_id', 'tx_hash', 'created_at']).where('user_id', '=', userId).orderBy('id', 'desc').limit(L).execute(),
      k.selectFrom('payout_merchants').select(['merchant_no', 'short_name', 'sign_name_masked', 'service_phone', 'category', 'province_code', 'city_code', 'address', 'state', 'created_at']).where('user_id', '=', userId).executeTakeFirst(),
      k.selectFrom('payout_split_relations').select(['merchant_no', 'ratio_permille', 'state', 'bound_at']).where('user_id', '=', userId).executeTakeFirst(),
    ]);
  const ticketIds = tickets.map((x) => Number(x.id));
  const ticketMessages = ticketIds.length
    ? await k
        .selectFrom('ticket_messages')
        .select((e) => [
          'ticket_messages.id',
          'ticket_messages.ticket_id',
          'ticket_messages.author',
          'ticket_messages.content',
          'ticket_messages.created_at',
          e.selectFrom('ticket_attachments').select((a) => a.fn.countAll<number>().as('n')).whereRef('ticket_attachments.message_id', '=', 'ticket_messages.id').as('attachments'),
        ])
        .where('ticket_messages.ticket_id', 'in', ticketIds)
        .orderBy('ticket_messages.id')
        .execute()
    : [];

  let realnameOut: Record<string, unknown> | null = null;
  if (realname) {
    const base = { verifiedAt: Number(realname.verified_at), adult: Number(realname.adult) === 1, provider: realname.provider };
    if (includeId) {
      realnameOut = {
        masked: false,
        name: ctx.secrets.open(realname.name_sealed),
        idNumber: ctx.secrets.open(realname.id_sealed),
        birthDate: realname.birth_sealed ? ctx.secrets.open(realname.birth_sealed) : null,
        ...base,
      };
    } else {
      realnameOut = { masked: true, name: realname.name_masked, idNumber: realname.id_masked, ...base };
    }
  }

  return {
    format: 'cfx-art-personal-data/1',
    generatedAt: ctx.now(),
    account: {
      accountId: user.account_id,
      mobile: user.mobile,
      nickname: user.nickname,
      avatarUrl: profpic?.url ?? '',
      hasPassword: Boolean(user.password_hash),
      isCreator: Number(user.is_creator) === 1,
      inviteCode: user.invite_code,
      invitedByAccountId: inviter?.account_id ?? null,
      invitedCount: Number(invitedCount.n),
      registChannel: user.regist_channel,
      createdAt: Number(user.created_at),
    },
    realname: realnameOut,
    wallet: { address: user.wallet_address ?? null },
    privacy,
    sessions: list(
      sessions.map((s) => ({
        device: deviceSummary(s.user_agent),
        userAgent: s.user_agent,
        ip: s.ip,
        createdAt: Number(s.created_at),
        lastSeenAt: num(s.last_seen_at),
        expiresAt: Number(s.expires_at),
        revokedAt: num(s.revoked_at),
      })),
    ),
    securityLog: list(events.map((e) => ({ kind: e.kind, ip: e.ip, userAgent: e.user_agent, detail: parseJson(e.detail), at: Number(e.created_at) }))),
    collectibles: list(
      goods.map((g) => ({
        goodsId: Number(g.id),
        name: g.name,
        serial: Number(g.serial),
        projectName: g.project_name,
        tokenId: g.token_id === null ? null : String(g.token_id),
        contract: g.contract,
        chainStatus: g.chain_status,
        status: g.status,
        acquiredAt: Number(g.acquired_at),
      })),
    ),
    favourites: list(favourites.map((f) => ({ goodsId: Number(f.goods_id), name: f.name, at: Number(f.created_at) }))),
    searchHistory: list(searches.map((s) => ({ text: s.kw, at: Number(s.created_at) }))),
    orders: list(
      orders.map((o) => {
        const buyer = Number(o.buyer_user_id) === userId;
        return {
          orderNo: o.order_no,
          kind: o.kind,
          role: buyer ? 'buyer' : 'seller',
          status: o.status,
          goodsId: num(o.goods_id),
          projectId: num(o.project_id),
          quantity: num(o.quantity),
          unitPriceFen: num(o.unit_price_fen),
          priceFen: Number(o.price_fen),
          commissionFen: buyer ? null : Number(o.commission_fen),
          royaltyFen: buyer ? null : Number(o.royalty_fen),
          sellerIncomeFen: buyer ? null : Number(o.seller_income_fen),
          walletAddress: buyer ? o.buyer_address : null,
          payMethod: buyer ? o.pay_method : null,
          createdAt: Number(o.created_at),
          paidAt: num(o.paid_at),
          completedAt: num(o.completed_at),
          closedAt: num(o.closed_at),
          txHash: o.tx_hash,
        };
      }),
    ),
    bids: list(bids.map((b) => ({ id: Number(b.id), goodsId: Number(b.goods_id), amountFen: Number(b.amount_fen), status: b.status, expiresAt: Number(b.expires_at), orderNo: b.order_no, createdAt: Number(b.created_at) }))),
    deals: list(
      deals.map((d) => {
        const buyer = Number(d.buyer_user_id) === userId;
        return {
          orderNo: d.order_no,
          role: buyer ? 'buyer' : 'seller',
          goodsId: Number(d.goods_id),
          priceFen: Number(d.price_fen),
          commissionFen: buyer ? null : Number(d.commission_fen),
          royaltyFen: buyer ? null : Number(d.royalty_fen),
          txHash: d.tx_hash,
          at: Number(d.created_at),
        };
      }),
    ),
    ledgerEntries: list(ledger.map((l) => ({ txnId: l.txn_id, kind: l.kind, orderNo: l.order_no, amountFen: Number(l.amount_fen), at: Number(l.created_at) }))),
    listings: list(
      listings.map((l) => ({
        goodsId: Number(l.goods_id),
        kind: l.kind,
        priceFen: Number(l.price_fen),
        status: l.status,
        walletAddress: l.seller_address,
        createdAt: Number(l.created_at),
        listedAt: num(l.listed_at),
        closedAt: num(l.closed_at),
        closeReason: l.close_reason,
      })),
    ),
    uploads: list(uploads.map((u) => ({ key: u.key, kind: u.kind, contentType: u.content_type, size: Number(u.size), name: u.original_name, at: Number(u.created_at) }))),
    projectApplications: list(
      applications.map((a) => ({
        id: Number(a.id),
        projectName: a.project_name,
        creatorName: a.creator_name,
        category: a.category,
        description: a.description,
        supply: Number(a.supply),
        priceFen: Number(a.price_fen),
        contactName: a.contact_name,
        mobile: a.mobile,
        email: a.email,
        status: a.status,
        rejectReason: a.reject_reason,
        createdAt: Number(a.created_at),
        updatedAt: Number(a.updated_at),
      })),
    ),
    accountCancellations: list(cancellations.map((c) => ({ status: c.status, requestedAt: Number(c.requested_at), effectiveAt: Number(c.effective_at), closedAt: num(c.closed_at) }))),
    dataExports: list(exportsLog.map((x) => ({ includesIdNumber: Number(x.include_id) === 1, downloads: Number(x.downloads), createdAt: Number(x.created_at), expiresAt: Number(x.expires_at) }))),
    // Money out: cards masked as the site shows them (never the number), the payout account (its
    // address in clear only with the security code, like the ID number), withdrawals and refunds.
    bankCards: list(cards.map((c) => ({ bankName: c.bank_name, cardNo: c.card_masked, reservedMobile: c.mobile_masked, status: c.status, boundAt: Number(c.bound_at), endedAt: num(c.ended_at) }))),
    payoutAccount: payoutAccount
      ? {
          provider: payoutAccount.provider,
          state: payoutAccount.state,
          merchantNo: payoutAccount.merchant_no,
          provinceCode: payoutAccount.province_code,
          cityCode: payoutAccount.city_code,
          address: includeId && payoutAccount.address_sealed ? ctx.secrets.open(payoutAccount.address_sealed) : null,
          addressIncluded: includeId && Boolean(payoutAccount.address_sealed),
          rejectReason: payoutAccount.reject_reason,
          idPhotos: idPhotos.map((p) => ({ side: p.side, uploadedAt: Number(p.created_at) })),
          openedAt: num(payoutAccount.opened_at),
          createdAt: Number(payoutAccount.created_at),
        }
      : null,
    merchant: merchant
      ? {
          merchantNo: merchant.merchant_no,
          shortName: merchant.short_name,
          signName: merchant.sign_name_masked,
          servicePhone: merchant.service_phone,
          category: merchant.category,
          provinceCode: merchant.province_code,
          cityCode: merchant.city_code,
          address: merchant.address,
          state: merchant.state,
          createdAt: Number(merchant.created_at),
          splitRelation: split ? { merchantNo: split.merchant_no, ratioPermille: Number(split.ratio_permille), state: split.state, boundAt: Number(split.bound_at) } : null,
        }
      : null,
    withdrawals: list(
      withdrawals.map((w) => ({
        withdrawNo: w.withdraw_no,
        amountFen: Number(w.amount_fen),
        feeFen: Number(w.fee_fen),
        netFen: Number(w.net_fen),
        status: w.status,
        failReason: w.fail_reason,
        bankName: w.bank_name,
        cardNo: w.card_masked,
        createdAt: Number(w.created_at),
        finishedAt: num(w.finished_at),
      })),
    ),
    refunds: list(
      refunds.map((r) => ({
        refundNo: r.refund_no,
        orderNo: r.order_no,
        provider: r.provider,
        amountFen: Number(r.amount_fen),
        status: r.status,
        automatic: Number(r.automatic) === 1,
        failReason: r.fail_reason,
        createdAt: Number(r.created_at),
        finishedAt: num(r.finished_at),
      })),
    ),
    // The message center: each message as the user reads it (Chinese), and the switches.
    messages: list(messages.map((m) => messageView({ ...m, id: Number(m.id), read_at: num(m.read_at), created_at: Number(m.created_at) }, 'zh'))),
    messageSettings: messageSettings.map((m) => ({ kind: m.kind, inApp: Number(m.in_app) === 1, sms: Number(m.sms) === 1, updatedAt: Number(m.updated_at) })),
    dropReminders: list(reminders.map((r) => ({ projectId: Number(r.project_id), projectName: r.name, createdAt: Number(r.created_at), notifiedAt: num(r.notified_at) }))),
    follows: list(follows.map((f) => ({ creatorId: Number(f.creator_id), creatorName: f.name, since: Number(f.created_at) }))),
    moments: list(moments.map((m) => ({ id: Number(m.id), creatorId: Number(m.creator_id), text: m.content_text, images: Number(m.image_count), createdAt: Number(m.created_at), deletedAt: num(m.deleted_at) }))),
    // Customer service: my tickets with their whole thread (staff replies without who wrote them).
    tickets: list(
      tickets.map((x) => ({
        id: Number(x.id),
        category: x.category,
        subject: x.subject,
        orderNo: x.order_no,
        status: x.status,
        createdAt: Number(x.created_at),
        closedAt: num(x.closed_at),
        messages: ticketMessages
          .filter((m) => Number(m.ticket_id) === Number(x.id))
          .map((m) => ({ author: m.author, content: m.content, attachments: Number(m.attachments ?? 0), at: Number(m.created_at) })),
      })),
    ),
    // The users I invited, masked exactly as the invite records show them.
    inviteRecords: list(invitees.map((i) => ({ mobile: maskMobile(i.mobile), nickname: i.nickname, registeredAt: Number(i.created_at), isRealname: Number(i.is_realname) === 1 }))),
    lotteryEntries: list(lotteryEntries.map((e) => ({ projectId: Number(e.project_id), projectName: e.name, entryNo: Number(e.entry_no), won: Number(e.won) === 1, at: Number(e.created_at) }))),
    whitelistEntries: list(whitelist.map((w) => ({ projectId: Number(w.project_id), projectName: w.name, quota: Number(w.quota), at: Number(w.created_at) }))),
    composeRecords: list(
      composes.map((c) => ({
        composeNo: c.compose_no,
        recipe: c.name,
        goodsIds: (parseJson(c.goods_ids) as number[] | null) ?? [],
        resultGoodsId: num(c.result_goods_id),
        resultTokenId: c.result_token_id,
        status: c.status,
        walletAddress: c.owner_address,
        txHash: c.tx_hash,
        createdAt: Number(c.created_at),
      })),
    ),
    boxOpenings: list(boxOpenings.map((b) => ({ boxGoodsId: Number(b.goods_id), projectId: Number(b.project_id), status: b.status, itemGoodsId: num(b.item_goods_id), txHash: b.tx_hash, createdAt: Number(b.created_at) }))),
    // Gifts sent and received and shifts between my own addresses: the other party's account and
    // address are left out of a gift (theirs, not mine).
    transfers: list(
      transfers.map((x) => {
        const sent = Number(x.from_user_id) === userId;
        const own = x.kind === 'shift';
        return {
          transferNo: x.transfer_no,
          kind: x.kind,
          direction: own ? 'own' : sent ? 'sent' : 'received',
          goodsId: Number(x.goods_id),
          tokenId: x.token_id,
          fromAddress: own || sent ? x.from_address : null,
          toAddress: own || !sent ? x.to_address : null,
          status: x.status,
          txHash: x.tx_hash,
          createdAt: Number(x.created_at),
          doneAt: num(x.done_at),
        };
      }),
    ),
  };
}
