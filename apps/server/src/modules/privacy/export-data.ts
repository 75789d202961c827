import { API_BASE, Status } from '@cfx/contract/envelope.ts';
import { SecurityPaths } from '@cfx/contract/routes.ts';
import { SmsType } from '@cfx/contract/user.ts';
import type { AppContext } from '../../context.ts';
import { inTx, lockKey } from '../../db/tx.ts';
import { ApiError } from '../../http/envelope.ts';
import { randomToken, sha256 } from '../../util/crypto.ts';
import { deviceSummary, type ClientMeta } from '../accounts/client-info.ts';
import { checkSmsCode } from '../accounts/input.ts';
import { findUserById } from '../accounts/repo.ts';
import { recordSecurityEvent } from '../accounts/security-log.ts';
import { consumeSmsCode } from '../accounts/sms-codes.ts';
import { Account } from '../ledger/ledger.ts';
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
  };
}
