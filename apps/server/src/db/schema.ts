import type { Generated } from 'kysely';

/*
 * Value sets of the status-like columns. The migrations declare them varchar without CHECK
 * constraints, so these unions are the contract: exactly the values the code writes. Where a
 * value reaches the API, db/api-guards.ts proves at compile time that the API's enum matches.
 */
/** chain_txs.status: queued → signed → sent → confirmed | failed (chain/tx-queue.ts). */
export type ChainTxStatus = 'queued' | 'signed' | 'sent' | 'confirmed' | 'failed';
/** chain_txs.kind: what the operator transaction does (mint job, settlement, consumeAndMint of a box opening / compose, a release's EIP-2981 royalty). */
export type ChainTxKind = 'mint' | 'settle' | 'consume' | 'royalty';
/** goods.chain_status: the token is minted on chain or waits for the mint job; 'void': a drop unit refunded because it could never be minted (migration 0021). */
export type GoodsChainStatus = 'pending' | 'minted' | 'void';
/** goods.status: held by its owner, listed on the market, or burned on chain (a box opened, a fragment composed; migration 0014). */
export type GoodsStatus = 'held' | 'on_sale' | 'burned';
/** goods_history_actions.action */
export type GoodsHistoryAction = 'mint' | 'list' | 'delist' | 'sale' | 'transfer' | 'open' | 'burn' | 'compose' | 'gift' | 'shift';
/** realname.provider: the KYC provider that verified the user ('demo': seeded demo traders). */
export type RealnameProvider = 'sandbox' | 'aliyun' | 'demo';
/** listings.kind and orders.kind: a market listing, or one made by accepting a bid. */
export type ListingKind = 'market' | 'bid';
/** orders.kind: a listing's kinds, or 'drop' (primary sale of a release, modules/drops). */
export type OrderKind = ListingKind | 'drop';
/** listings.status: draft → on_sale → reserved → sold; closed / invalid end a live listing; void drops a superseded draft. */
export type ListingStatus = 'draft' | 'on_sale' | 'reserved' | 'sold' | 'closed' | 'invalid' | 'void';
/** orders.status (modules/orders/transitions.ts): created → paying → paid → settling → completed | cancelled | expired | refunded. */
export type OrderStatus = 'created' | 'paying' | 'paid' | 'settling' | 'completed' | 'cancelled' | 'expired' | 'refunded';
/** orders.closed_by: the buyer cancelled the unpaid order, or it was not paid in time (counted by the re-order limits). */
export type OrderClosedBy = 'buyer' | 'expiry';
/** orders.pay_method and payments.provider: who took the money. */
export type PayMethod = 'balance' | 'sandbox' | 'alipay' | 'card' | 'wechat';
/** payments.outcome: 'pending' only inside the transaction that inserts the row (modules/payments/apply-payment.ts). */
export type PaymentOutcome = 'pending' | 'applied' | 'credited' | 'suspense';
/** ledger_txns.kind */
export type LedgerTxnKind =
  | 'pay' | 'credit' | 'settle' | 'refund' | 'topup' | 'suspense'
  // money out (modules/payout): a withdrawal requested, paid to the card, failed and returned; a stray payment refunded to its method
  | 'withdraw' | 'withdraw_paid' | 'withdraw_failed' | 'refund_out' | 'refund_out_paid' | 'refund_out_failed';
/** jobs.kind: the registered job handlers (modules/market/start-market.ts; 'anonymise': modules/privacy/account-jobs.ts; 'consume': modules/compose/consume-flow.ts). */
export type JobKind = 'settle' | 'fulfil' | 'anonymise' | 'msg-sms' | 'stray-refund' | 'consume';
/** jobs.status: pending → running → done (a failing job is retried, never parked). */
export type JobStatus = 'pending' | 'running' | 'done';
/** bids.status */
export type BidStatus = 'active' | 'accepted' | 'cancelled' | 'expired' | 'replaced' | 'closed';
/** banners.position: the page a banner shows on. */
export type BannerPosition = 'home' | 'projects' | 'market' | 'news';
/** banners.link_type: what a click on the banner opens (link_target: an id, or the URL for 'url'). */
export type BannerLinkType = 'project' | 'goods' | 'news' | 'creator' | 'url';
/** recommend_items.item_type: what item_id refers to. */
export type RecommendItemType = 'project' | 'goods' | 'creator' | 'news';
/** sandbox_trades.status: the sandbox cashier records paid trades only. */
export type SandboxTradeStatus = 'success';

/** payout_accounts.state (modules/payout): opening at the provider → active | rejected. */
export type PayoutAccountState = 'opening' | 'active' | 'rejected';
/** The payout provider of an account, card or withdrawal (providers/payout). */
export type PayoutProviderName = 'sandbox' | 'yeepay';
/** payout_card_requests.purpose / status. */
export type CardRequestPurpose = 'bind' | 'replace' | 'mobile';
export type CardRequestStatus = 'pending' | 'done' | 'void';
/** payout_cards.status: one active card per user. */
export type PayoutCardStatus = 'active' | 'replaced' | 'unbound';
/** payout_withdrawals.status: requested → processing → succeeded | failed. */
export type WithdrawalStatus = 'requested' | 'processing' | 'succeeded' | 'failed';
/** stray_refunds.status: requested → processing → succeeded | failed. */
export type StrayRefundStatus = 'requested' | 'processing' | 'succeeded' | 'failed';
/** sandbox_payouts.status / sandbox_refunds.status: the sandbox bank's own state. */
export type SandboxBankStatus = 'processing' | 'success' | 'fail';

/** Times are epoch milliseconds (bigint in PostgreSQL, parsed to number). */
export interface UsersTable {
  id: Generated<number>;
  account_id: string;
  mobile: string;
  password_hash: string | null;
  nickname: string;
  profpic_id: string;
  is_realname: number;
  is_creator: number;
  wallet_address: string | null;
  invite_code: string;
  invited_by: number | null;
  regist_channel: string | null;
  created_at: number;
  /** When the account was anonymised after a cancellation (migration 0012); null for live accounts. */
  cancelled_at: number | null;
  /** Frozen by staff (migration 0019, modules/admin): no session works, login and trading are refused. */
  frozen_at: Generated<number | null>;
}
export interface SessionsTable {
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  wallet_connected: Generated<number>;
  /** Public id of the session (migration 0012): what the session list shows and revoke takes. */
  sid: string | null;
  /** Captured at login (truncated to 300 characters). */
  user_agent: string | null;
  ip: string | null;
  /** Touched at most once a minute by the session check. */
  last_seen_at: number | null;
}
export interface WalletChallengesTable {
  nonce: string;
  user_id: number;
  address: string;
  message: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
export interface SmsCodesTable {
  id: Generated<number>;
  mobile: string;
  type: string;
  code_hash: string;
  ip: string;
  created_at: number;
  expires_at: number;
  wrong_tries: number;
  used_at: number | null;
}
export interface SmsOutboxTable {
  id: Generated<number>;
  mobile: string;
  type: string;
  code: string;
  created_at: number;
}
export interface CaptchaChallengesTable {
  id: string;
  /** Client IP that asked for it (migration 0008): challenges are rate-limited per IP. */
  ip: string | null;
  answer_x: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
/** One row per real-name attempt that reached the provider check (migration 0008). */
export interface KycAttemptsTable {
  id: Generated<number>;
  user_id: number;
  created_at: number;
}
export interface CaptchaTokensTable {
  token_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
export interface LoginFailuresTable {
  id: Generated<number>;
  mobile: string;
  ip: string;
  created_at: number;
}
/** Wrong registration codes (migration 0025): limited per phone (a keyed digest, not the number) and per IP within the login window. */
export interface RegisterFailuresTable {
  id: Generated<number>;
  mobile_digest: string;
  ip: string;
  created_at: number;
}
export interface ResetTokensTable {
  token_hash: string;
  mobile: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
export interface ProfpicsTable {
  id: string;
  url: string;
  sort: number;
}

export interface ChainMetaTable { key: string; value: string }
export interface ChainTxsTable {
  id: Generated<number>;
  idempotency_key: string;
  kind: ChainTxKind;
  to_address: string;
  data: string;
  status: ChainTxStatus;
  nonce: number | null;
  tx_hash: string | null;
  raw_tx: string | null;
  tries: Generated<number>;
  rounds: Generated<number>;
  next_check_at: Generated<number>;
  outcome_status: number | null;
  epoch: number | null;
  error: string | null;
  created_at: number;
  sent_at: number | null;
  done_at: number | null;
}
export interface ChainRecordsTable {
  id: Generated<number>;
  tx_hash: string;
  log_index: number;
  epoch: number;
  block_time: number;
  contract: string;
  event: string;
  from_address: string | null;
  to_address: string | null;
  token_id: string | null;
  data: string;
}

/** Catalog and content (migration 0004). Money in fen, times in epoch ms. */
export interface CreatorsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  avatar: string;
  banner: string;
  intro: string;
  /** JSON array of {type, label, url}. */
  media_links: string;
  sort: number;
  created_at: number;
  /** Migration 0028: disabled by staff (hidden from the public, no new release); NULL = enabled. */
  disabled_at?: number | null;
  /** Migration 0028: the verified mark (认证); NULL = not verified. */
  verified_at?: number | null;
  /** Migration 0028: the application whose approval made this creator; NULL otherwise. */
  application_id?: number | null;
  /** Migration 0028: last console edit. */
  updated_at?: number | null;
}
export interface ProjectsTable {
  id: Generated<number>;
  creator_id: number;
  name: string;
  cover: string;
  category: string;
  description_html: string;
  supply: number;
  sold: number;
  price_fen: number;
  sale_start_at: number;
  sale_end_at: number | null;
  contract_address: string | null;
  token_start: number | null;
  token_end: number | null;
  holding_days: number;
  sort: number;
  created_at: number;
  /** The creator's royalty on resales, per mille (0–100); null = ROYALTY_PERMILLE (migration 0027). */
  royalty_permille: Generated<number | null>;
  /** Artwork media kind (migration 0029): 'image' | 'video' | 'model'; null = the cover image only. */
  media_kind: Generated<MediaKind | null>;
  /** Storage key of the artwork media (a public upload); the poster is `cover`. */
  media_key: Generated<string | null>;
}
/** What a release's artwork is (projects.media_kind). */
export type MediaKind = 'image' | 'video' | 'model';
export interface GoodsTable {
  id: Generated<number>;
  project_id: number;
  serial: number;
  token_id: number | null;
  contract: string | null;
  chain_status: GoodsChainStatus;
  mint_tx_hash: string | null;
  minted_at: number | null;
  owner_user_id: number;
  name: string;
  image: string;
  /** JSON array of {trait, value}. */
  attributes: string;
  status: GoodsStatus;
  sale_price_fen: number | null;
  listed_at: number | null;
  last_price_fen: number | null;
  acquired_at: number;
  created_at: number;
  /** The drop order that created it (migration 0010). */
  drop_order_no: string | null;
  /** Failed single mints of a pending collectible and when the last one failed (migration 0021). */
  mint_failures: Generated<number>;
  mint_failed_at: Generated<number | null>;
  /** Where the token is when not at the owner's linked wallet (a shift to another own address, migration 0014); null = at the linked wallet. */
  holder_address: Generated<string | null>;
}
export interface GoodsPriceHistoryTable {
  id: Generated<number>;
  goods_id: number;
  price_fen: number;
  at: number;
}
export interface GoodsHistoryActionsTable {
  id: Generated<number>;
  goods_id: number;
  action: GoodsHistoryAction;
  from_user_id: number | null;
  to_user_id: number | null;
  price_fen: number | null;
  tx_hash: string | null;
  at: number;
}
export interface NewsTable {
  id: Generated<number>;
  title: string;
  cover: string;
  summary: string;
  content_html: string;
  category: string;
  author: string;
  is_hot: number;
  is_place: number;
  place_sort: number;
  views: number;
  published_at: number;
  created_at: number;
  /** 1 = draft / unpublished: never shown on the site (migration 0020). */
  draft: Generated<number>;
  /** Last edit in the console (migration 0020). */
  updated_at: Generated<number | null>;
}
export interface BannersTable {
  id: Generated<number>;
  position: BannerPosition;
  title: string;
  subtitle: string;
  image: string;
  link_type: BannerLinkType;
  link_target: string;
  sort: number;
  active: number;
  created_at: number;
  /** The active window (migration 0020); null = unbounded. */
  start_at: Generated<number | null>;
  end_at: Generated<number | null>;
}
export interface RecommendListsTable {
  id: Generated<number>;
  code: string;
  title: string;
  sort: number;
}
export interface RecommendItemsTable {
  id: Generated<number>;
  list_id: number;
  item_type: RecommendItemType;
  item_id: number;
  sort: number;
}
export interface SearchHistoryTable {
  id: Generated<number>;
  user_id: number;
  kw: string;
  created_at: number;
}

export interface RealnameTable {
  user_id: number;
  name_sealed: string;
  id_sealed: string;
  id_digest: string;
  id_masked: string;
  name_masked: string;
  /** The birth date (yyyy-MM-dd), sealed like the ID number (migration 0008). */
  birth_sealed: string | null;
  /** 1: 18 or older when verified (verification refuses minors, so a verified user stays adult). */
  adult: Generated<number>;
  provider: RealnameProvider;
  verified_at: number;
}

/** Consignment market (migration 0006). Money in fen, times in epoch ms. */
export interface ListingsTable {
  id: Generated<number>;
  goods_id: number;
  seller_user_id: number;
  seller_address: string;
  nft_token: string;
  token_id: string;
  price_fen: number;
  seller_order_id: string;
  signature: string | null;
  kind: ListingKind;
  bid_id: number | null;
  status: ListingStatus;
  reserved_order_no: string | null;
  close_reason: string | null;
  draft_expires_at: number;
  created_at: number;
  listed_at: number | null;
  closed_at: number | null;
  /** When the chain was seen to have cancelled this listing's signed order (migration 0009). */
  chain_cancelled_at: number | null;
}
export interface OrdersTable {
  id: Generated<number>;
  order_no: string;
  kind: OrderKind;
  /** null on drop orders (migration 0010). */
  listing_id: number | null;
  goods_id: number | null;
  buyer_user_id: number;
  seller_user_id: number;
  buyer_address: string;
  price_fen: number;
  commission_fen: number;
  royalty_fen: number;
  royalty_user_id: number | null;
  seller_income_fen: number;
  status: OrderStatus;
  pay_method: PayMethod | null;
  provider_trade_no: string | null;
  expires_at: number;
  chain_tx_id: number | null;
  settle_attempt: Generated<number>;
  tx_hash: string | null;
  fail_reason: string | null;
  created_at: number;
  paid_at: number | null;
  completed_at: number | null;
  closed_at: number | null;
  /** Why an unpaid order closed (migration 0009); null: still open, or closed another way. */
  closed_by: OrderClosedBy | null;
  /** Drop orders (migration 0010): the release, units, unit price (price_fen = quantity × unit price) and the buyer's real-name identity digest. */
  project_id: number | null;
  quantity: number | null;
  unit_price_fen: number | null;
  identity_digest: string | null;
  /** The quota bucket a drop order took its units from (migration 0013): 'whitelist' | 'lottery'; null = drop_quota (the release limit). */
  quota_bucket: Generated<string | null>;
}
export interface OrderEventsTable {
  id: Generated<number>;
  order_no: string;
  from_status: OrderStatus | null;
  to_status: OrderStatus;
  note: string | null;
  at: number;
}
export interface PaymentsTable {
  id: Generated<number>;
  provider: PayMethod;
  provider_trade_no: string;
  order_no: string;
  user_id: number | null;
  amount_fen: number;
  outcome: PaymentOutcome;
  raw: string;
  created_at: number;
}
export interface LedgerTxnsTable {
  id: string;
  kind: LedgerTxnKind;
  order_no: string | null;
  created_at: number;
}
export interface LedgerEntriesTable {
  id: Generated<number>;
  txn_id: string;
  account: string;
  amount_fen: number;
  created_at: number;
}
export interface LedgerBalancesTable {
  account: string;
  balance_fen: number;
  updated_at: number;
}
export interface JobsTable {
  id: Generated<number>;
  kind: JobKind;
  job_key: string;
  payload: string;
  status: JobStatus;
  attempts: Generated<number>;
  run_at: number;
  lease_until: Generated<number>;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  /** The worker lease's fencing token under which this job was claimed (0031; null before its first claim). */
  lease_token: Generated<number | null>;
}
/** The worker role's lease (0031, one row, id 1): jobs/worker-lease.ts. */
export interface WorkerLeaseTable {
  id: number;
  holder: string | null;
  token: number;
  expires_at: number;
  acquired_at: number;
}
export interface DealsTable {
  id: Generated<number>;
  order_no: string;
  goods_id: number;
  project_id: number;
  listing_id: number;
  seller_user_id: number;
  buyer_user_id: number;
  price_fen: number;
  commission_fen: number;
  royalty_fen: number;
  tx_hash: string | null;
  created_at: number;
}
export interface BidsTable {
  id: Generated<number>;
  goods_id: number;
  bidder_user_id: number;
  amount_fen: number;
  expires_at: number;
  status: BidStatus;
  order_no: string | null;
  created_at: number;
  updated_at: number;
}
export interface FavoritesTable {
  user_id: number;
  goods_id: number;
  created_at: number;
}
export interface SandboxTradesTable {
  trade_no: string;
  out_trade_no: string;
  amount_fen: number;
  status: SandboxTradeStatus;
  created_at: number;
}

/** Written by triggers (migration 0007): goods ids whose page changed; null = any collectible. */
export interface CatalogChangesTable {
  seq: Generated<number>;
  goods_id: number | null;
  created_at: number;
}

/** Primary-sale stock of a release (migration 0010, modules/drops/stock.ts). */
export interface DropStockTable {
  project_id: number;
  supply: number;
  taken: number;
  paid: number;
  next_serial: number;
  /** Units refunded instead of minted (migration 0021): still taken (serials used up), not sold. */
  voided: Generated<number>;
  updated_at: number;
}
/** Units given back by closed unpaid drop orders, not yet folded into drop_stock (migration 0042, PostgreSQL only writes it). */
export interface DropStockReturnsTable {
  id: Generated<number>;
  project_id: number;
  units: number;
  created_at: number;
}
/** Units of a release taken by one real-name identity (reserved + paid). */
export interface DropQuotaTable {
  project_id: number;
  identity_digest: string;
  taken: number;
  updated_at: number;
}
/** Per-release primary-sale settings (defaults from config/drops.ts when there is no row). */
export interface DropConfigTable {
  project_id: number;
  per_identity_limit: number;
  max_per_order: number;
  primary_commission_permille: number | null;
  updated_at: number;
}

/** Sale phases, whitelists and the lottery (migration 0013, modules/drops/phases.ts, whitelist.ts, lottery.ts). */
export type DropPhaseKind = 'whitelist' | 'claim' | 'lottery_signup' | 'lottery_rights' | 'public';
/** Where a phase's per-identity quota comes from; 'none' for the lottery sign-up (nothing is bought). */
export type DropQuotaSource = 'whitelist' | 'lottery' | 'release' | 'none';
/** drop_lotteries.status: open (sign-up) → closed (entry list frozen) → drawn. */
export type DropLotteryStatus = 'open' | 'closed' | 'drawn';
export interface DropPhasesTable {
  id: Generated<number>;
  project_id: number;
  seq: number;
  kind: DropPhaseKind;
  start_at: number | null;
  end_at: number | null;
  price_fen: number;
  quota_source: DropQuotaSource;
  created_at: number;
}
/** Units taken per release, bucket ('whitelist' | 'lottery') and real-name identity. */
export interface DropPhaseQuotaTable {
  project_id: number;
  bucket: string;
  identity_digest: string;
  taken: number;
  updated_at: number;
}
export interface DropWhitelistTable {
  project_id: number;
  user_id: number;
  quota: number;
  created_at: number;
  updated_at: number;
}
export interface DropLotteriesTable {
  project_id: number;
  draw_epoch: number;
  winners: number;
  win_quota: number;
  rights_minutes: number;
  algorithm: string;
  status: DropLotteryStatus;
  entry_count: number;
  entries_hash: string | null;
  closed_at: number | null;
  closed_epoch: number | null;
  block_hash: string | null;
  /** Winning entry numbers, ascending, comma-separated. */
  winners_list: string | null;
  winners_hash: string | null;
  drawn_at: number | null;
  created_at: number;
}
export interface DropLotteryEntriesTable {
  project_id: number;
  entry_no: number;
  identity_digest: string;
  user_id: number;
  masked_account: string;
  won: Generated<number>;
  created_at: number;
}
/** drop_events.kind: results for the message center to tell users about. */
export type DropEventKind = 'lottery_result';
export interface DropEventsTable {
  id: Generated<number>;
  kind: DropEventKind;
  project_id: number;
  user_id: number;
  payload: string;
  created_at: number;
  delivered_at: number | null;
}

/** uploads.kind (modules/uploads/policies.ts): what a stored file was accepted as. */
export type UploadKind = 'image' | 'document' | 'media';
/** settled_applications.status (packages/contract/src/settled-rules.ts SETTLED_STATUSES). */
export type SettledStatus = 'submitted' | 'reviewing' | 'approved' | 'rejected';
/** settled_application_files.role */
export type SettledFileRole = 'artwork' | 'qualification';

/** One stored upload (migration 0011): the bytes live in the storage provider under `key`. */
export interface UploadsTable {
  id: Generated<number>;
  user_id: number;
  key: string;
  kind: UploadKind;
  content_type: string;
  size: number;
  sha256: string;
  /** The client's file name, sanitised: metadata only. */
  original_name: string;
  created_at: number;
}
/** Project applications (migration 0011, modules/settled). At most one submitted/reviewing per user (partial unique index). */
export interface SettledApplicationsTable {
  id: Generated<number>;
  user_id: number;
  project_name: string;
  creator_name: string;
  category: string;
  description: string;
  supply: number;
  price_fen: number;
  contact_name: string;
  mobile: string;
  email: string;
  status: SettledStatus;
  reject_reason: string | null;
  reviewed_by: number | null;
  reviewed_at: number | null;
  created_at: number;
  updated_at: number;
}
export interface SettledApplicationFilesTable {
  application_id: number;
  upload_id: number;
  role: SettledFileRole;
  position: number;
}
/** Every status change of an application: who (applicant or staff), when, why. */
export interface SettledApplicationEventsTable {
  id: Generated<number>;
  application_id: number;
  from_status: SettledStatus | null;
  to_status: SettledStatus;
  actor_user_id: number;
  reason: string | null;
  created_at: number;
}

/** Security and privacy of the personal center (migration 0012, modules/accounts and modules/privacy). */
/** security_events.kind (packages/contract/src/account-security.ts SECURITY_EVENT_KINDS). */
export type SecurityEventKindDb =
  | 'password_changed' | 'mobile_changed' | 'session_revoked' | 'sessions_revoked' | 'cancel_requested' | 'cancel_revoked'
  | 'cancel_blocked' | 'account_cancelled' | 'export_requested' | 'export_downloaded' | 'privacy_changed';
/** account_cancellations.status: cooling → revoked | blocked | done. */
export type CancellationStatus = 'cooling' | 'revoked' | 'blocked' | 'done';
export interface PrivacySettingsTable {
  user_id: number;
  show_collection: number;
  personalized_recommend: number;
  updated_at: number;
}
export interface SecurityEventsTable {
  id: Generated<number>;
  user_id: number;
  kind: SecurityEventKindDb;
  ip: string | null;
  user_agent: string | null;
  /** JSON without secrets or clear personal data. */
  detail: string | null;
  created_at: number;
}
export interface MobileChangeTicketsTable {
  token_hash: string;
  user_id: number;
  old_mobile: string;
  new_mobile: string | null;
  sends: Generated<number>;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
export interface AccountCancellationsTable {
  id: Generated<number>;
  user_id: number;
  status: CancellationStatus;
  requested_at: number;
  effective_at: number;
  closed_at: number | null;
  /** blocked: JSON array of {kind, count, amountFen}. */
  blockers: string | null;
}
export interface DataExportsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  include_id: number;
  downloads: Generated<number>;
  created_at: number;
  expires_at: number;
}

/** Follow and creators' moments (migration 0017, modules/creators). */
export interface FollowsTable {
  user_id: number;
  creator_id: number;
  created_at: number;
}
/** A creator's follower count, changed in the same transaction as the follows row (no row = 0). */
export interface CreatorStatsTable {
  creator_id: number;
  followers: number;
  updated_at: number;
}
export interface FollowEventsTable {
  id: Generated<number>;
  user_id: number;
  creator_id: number;
  /** 1 follow, 0 unfollow */
  follow: number;
  /** 1 when the call changed the state */
  changed: number;
  created_at: number;
}
export interface CreatorMomentsTable {
  id: Generated<number>;
  creator_id: number;
  author_user_id: number;
  content_html: string;
  content_text: string;
  image_count: Generated<number>;
  created_at: number;
  deleted_at: number | null;
}
export interface CreatorMomentImagesTable {
  moment_id: number;
  position: number;
  upload_id: number;
  url: string;
  width: number;
  height: number;
}

/* Money out (migration 0016, modules/payout, docs/payouts.md). */
export interface PayoutAccountsTable {
  user_id: number;
  provider: PayoutProviderName;
  state: PayoutAccountState;
  request_no: string;
  merchant_no: string | null;
  province_code: string;
  city_code: string;
  address_sealed: string;
  reject_reason: string | null;
  opened_at: number | null;
  created_at: number;
  updated_at: number;
}
export interface PayoutIdentityTable {
  user_id: number;
  side: 'front' | 'back';
  upload_id: number;
  created_at: number;
}
export interface PayoutCardRequestsTable {
  id: string;
  user_id: number;
  purpose: CardRequestPurpose;
  card_id: number | null;
  status: CardRequestStatus;
  card_sealed: string;
  card_digest: string;
  bank_code: string;
  bank_name: string;
  card_masked: string;
  last4: string;
  mobile_sealed: string;
  mobile_masked: string;
  expires_at: number;
  created_at: number;
  done_at: number | null;
}
export interface PayoutCardsTable {
  id: Generated<number>;
  user_id: number;
  status: PayoutCardStatus;
  card_sealed: string;
  card_digest: string;
  bank_code: string;
  bank_name: string;
  card_masked: string;
  last4: string;
  mobile_sealed: string;
  mobile_masked: string;
  provider_bind_id: string | null;
  bound_at: number;
  ended_at: number | null;
  /** The provider's quick-pay agreement of the card (migration 0024), learnt at its first confirmed payment. */
  quickpay_bind_id: string | null;
}
export interface PayoutWithdrawalsTable {
  id: Generated<number>;
  withdraw_no: string;
  user_id: number;
  card_id: number;
  provider: PayoutProviderName;
  amount_fen: number;
  fee_fen: number;
  net_fen: number;
  status: WithdrawalStatus;
  provider_trade_no: string | null;
  fail_reason: string | null;
  bank_name: string;
  card_masked: string;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}
export interface PayoutMerchantsTable {
  user_id: number;
  merchant_no: string;
  short_name: string;
  sign_name_masked: string;
  service_phone: string;
  category: string;
  province_code: string;
  city_code: string;
  address: string;
  state: 'active';
  created_at: number;
  updated_at: number;
}
export interface PayoutSplitRelationsTable {
  user_id: number;
  creator_id: number;
  merchant_no: string;
  ratio_permille: number;
  state: 'bound';
  bound_at: number;
}
export interface StrayRefundsTable {
  id: Generated<number>;
  refund_no: string;
  payment_id: number;
  user_id: number;
  provider: 'sandbox' | 'alipay' | 'card' | 'wechat';
  provider_trade_no: string;
  order_no: string;
  amount_fen: number;
  status: StrayRefundStatus;
  automatic: number;
  provider_refund_no: string | null;
  fail_reason: string | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}
export interface SandboxPayoutsTable {
  trade_no: string;
  withdraw_no: string;
  amount_fen: number;
  card_last4: string;
  status: SandboxBankStatus;
  fail_reason: string | null;
  notify_url: string;
  /** When the sandbox bank received it; it answers PAYOUT_SANDBOX_DELAY_MS later. */
  received_at: number;
  created_at: number;
}
export interface SandboxRefundsTable {
  refund_trade_no: string;
  out_request_no: string;
  trade_no: string;
  amount_fen: number;
  status: SandboxBankStatus;
  fail_reason: string | null;
  notify_url: string;
  /** When the sandbox bank received it; it answers PAYOUT_SANDBOX_DELAY_MS later. */
  received_at: number;
  created_at: number;
}

/** Bank-card quick payment (migration 0024, modules/card-pay, docs/payouts.md "Paying with a bank card"). */
/** card_payments.status: sms_sent → confirming → succeeded | failed (the money itself: payments, provider 'card'). */
export type CardPaymentStatus = 'sms_sent' | 'confirming' | 'succeeded' | 'failed';
export interface CardPaymentsTable {
  pay_no: string;
  user_id: number;
  order_no: string;
  card_id: number;
  provider: PayoutProviderName;
  amount_fen: number;
  status: CardPaymentStatus;
  provider_trade_no: string | null;
  provider_ref: string | null;
  wrong_tries: number;
  sms_sends: number;
  last_sms_at: number;
  fail_reason: string | null;
  expires_at: number;
  created_at: number;
  updated_at: number;
}
/** sandbox_quickpays.status: the sandbox bank's charge. */
export type SandboxQuickpayStatus = 'sms_sent' | 'success' | 'fail';
export interface SandboxQuickpaysTable {
  trade_no: string;
  request_no: string;
  amount_fen: number;
  refunded_fen: number;
  card_last4: string;
  status: SandboxQuickpayStatus;
  fail_reason: string | null;
  code_hash: string;
  code_expires_at: number;
  wrong_tries: number;
  sms_sends: number;
  last_sms_at: number;
  expires_at: number;
  notify_url: string;
  paid_at: number | null;
  created_at: number;
}
export interface SandboxQuickpayRefundsTable {
  refund_trade_no: string;
  out_request_no: string;
  trade_no: string;
  amount_fen: number;
  status: 'processing' | 'success';
  notify_url: string;
  received_at: number;
  created_at: number;
}

/** The operations console (migration 0019, modules/admin, docs/admin.md). */
/** staff_sessions.stage: after the password → totp | enrol → (password: a forced change) → full. */
export type StaffSessionStage = 'totp' | 'enrol' | 'password' | 'full';
export interface StaffTable {
  id: Generated<number>;
  /** Lower-case, unique. */
  username: string;
  password_hash: string;
  /** Comma-separated StaffRole values. */
  roles: string;
  /** The TOTP secret (base32), sealed with ctx.secrets; null until the first login generates one. */
  totp_secret: string | null;
  /** 1 once a code from the secret was entered (enrolment done). */
  totp_enabled: number;
  /** The last accepted TOTP time step: a code of this step or an earlier one is refused (no replay). */
  totp_last_step: number;
  /** 1 after a one-time password (created by the CLI or an owner, or reset): the next login sets a new one. */
  must_change_password: number;
  /** The users row this staff member acts as in domain tables whose actor columns reference users (tickets, applications). */
  user_id: number;
  disabled_at: number | null;
  /** The staff member who created this one; null when the CLI did. */
  created_by: number | null;
  created_at: number;
  last_login_at: number | null;
  updated_at: number;
}
export interface StaffSessionsTable {
  token_hash: string;
  staff_id: number;
  stage: StaffSessionStage;
  created_at: number;
  /** Absolute end: 5 minutes for a pending stage, 8 hours for a full session. */
  expires_at: number;
  /** Idle end: a full session unused for 30 minutes is over. */
  last_seen_at: number;
  revoked_at: number | null;
  /** Masked at write (203.0.*.*). */
  ip_masked: string;
  user_agent: string;
}
/** Failed staff password or TOTP tries (the lockout counts them per user name and per IP). */
export interface StaffLoginFailuresTable {
  id: Generated<number>;
  username: string;
  ip: string;
  created_at: number;
}
/** Every mutating staff action, written in the action's own transaction. */
export interface AuditLogTable {
  id: Generated<number>;
  /** null: the bootstrap CLI. */
  staff_id: number | null;
  action: string;
  target_type: string;
  target_id: string | null;
  /** JSON before/after summary, no secrets, personal data masked. */
  summary: string;
  ip_masked: string;
  created_at: number;
}
/** Freezes of user accounts (users.frozen_at is the current state; this is the history). */
export interface UserFreezesTable {
  id: Generated<number>;
  user_id: number;
  reason: string;
  frozen_by: number;
  frozen_at: number;
  unfrozen_by: number | null;
  unfrozen_at: number | null;
  unfreeze_reason: string | null;
}
/** Real-name verifications revoked by staff (the realname row is deleted: the user must verify again). */
export interface KycRevocationsTable {
  id: Generated<number>;
  user_id: number;
  name_masked: string;
  id_masked: string;
  provider: string;
  verified_at: number;
  reason: string;
  staff_id: number;
  revoked_at: number;
}

/** Blind boxes, compose, shift and gifts (migration 0014, modules/boxes, modules/compose, modules/shift). */
/** goods_holds.kind: the flow that holds a collectible. */
export type GoodsHoldKind = 'box' | 'compose' | 'transfer';
/** box_releases.status */
export type BoxReleaseStatus = 'committed' | 'revealed';
/** box_openings.status: signing → submitted → completed | failed. */
export type BoxOpeningStatus = 'signing' | 'submitted' | 'completed' | 'failed';
/** compose_records.status (packages/contract/src/goods-flows.ts composeStatus). */
export type ComposeStatus = 'selected' | 'confirmed' | 'submitted' | 'completed' | 'failed' | 'expired' | 'cancelled';
/** goods_transfers.kind / status */
export type GoodsTransferKind = 'shift' | 'gift';
export type GoodsTransferStatus = 'pending' | 'done' | 'expired';
export interface GoodsHoldsTable {
  goods_id: number;
  kind: GoodsHoldKind;
  ref: string;
  user_id: number;
  /** null: held until the flow ends. */
  expires_at: number | null;
  created_at: number;
}
export interface BoxReleasesTable {
  project_id: number;
  item_project_id: number;
  kinds: string;
  commitment: string;
  seed_sealed: string;
  reveal_epoch: number;
  algorithm: string;
  status: BoxReleaseStatus;
  server_seed: string | null;
  block_hash: string | null;
  assignment: string | null;
  assignment_hash: string | null;
  revealed_at: number | null;
  created_at: number;
}
export interface BoxOpeningsTable {
  id: Generated<number>;
  goods_id: number;
  project_id: number;
  user_id: number;
  owner_address: string;
  flow_id: string;
  burn_token_id: string;
  mint_token_id: string;
  serial: number;
  kind_index: number;
  status: BoxOpeningStatus;
  attempt: Generated<number>;
  signature: string | null;
  chain_tx_id: number | null;
  tx_hash: string | null;
  item_goods_id: number | null;
  fail_reason: string | null;
  expires_at: number | null;
  created_at: number;
  updated_at: number;
}
export interface ComposeRulesTable {
  id: Generated<number>;
  name: string;
  description: string;
  result_project_id: number;
  result_name: string;
  result_image: string;
  result_attributes: string;
  ingredients: string;
  start_at: number;
  end_at: number | null;
  max_times: number;
  used_times: Generated<number>;
  created_at: number;
}
export interface ComposeRecordsTable {
  id: Generated<number>;
  compose_no: string;
  rule_id: number;
  user_id: number;
  owner_address: string | null;
  goods_ids: string;
  burn_token_ids: string;
  result_serial: number | null;
  result_token_id: string | null;
  status: ComposeStatus;
  attempt: Generated<number>;
  signature: string | null;
  chain_tx_id: number | null;
  tx_hash: string | null;
  result_goods_id: number | null;
  fail_reason: string | null;
  expires_at: number | null;
  created_at: number;
  updated_at: number;
}
export interface GoodsTransfersTable {
  id: Generated<number>;
  transfer_no: string;
  kind: GoodsTransferKind;
  goods_id: number;
  token_id: string;
  from_user_id: number;
  to_user_id: number;
  from_address: string;
  to_address: string;
  status: GoodsTransferStatus;
  tx_hash: string | null;
  created_at: number;
  expires_at: number;
  done_at: number | null;
}

/** Customer-service tickets (migration 0018, modules/tickets; values: packages/contract/src/ticket-rules.ts). */
export type TicketStatusDb = 'open' | 'answered' | 'closed';
export type TicketAuthor = 'user' | 'staff';
export interface TicketsTable {
  id: Generated<number>;
  user_id: number;
  category: string;
  subject: string;
  order_no: string | null;
  status: TicketStatusDb;
  /** Staff replies the user has not opened yet. */
  user_unread: Generated<number>;
  last_message_at: number;
  closed_at: number | null;
  closed_by: TicketAuthor | null;
  created_at: number;
  updated_at: number;
}
export interface TicketMessagesTable {
  id: Generated<number>;
  ticket_id: number;
  author: TicketAuthor;
  /** The user, or the staff member who answered (never shown to the user). */
  author_user_id: number;
  content: string;
  created_at: number;
}
export interface TicketAttachmentsTable {
  message_id: number;
  upload_id: number;
  position: number;
}
export interface TicketEventsTable {
  id: Generated<number>;
  ticket_id: number;
  from_status: TicketStatusDb | null;
  to_status: TicketStatusDb;
  actor: TicketAuthor;
  actor_user_id: number;
  created_at: number;
}

/** Migration 0030: a creator's release draft (modules/studio). */
export interface ReleaseDraftsTable {
  id: Generated<number>;
  creator_id: number;
  /** draft | submitted | approved | rejected */
  state: 'draft' | 'submitted' | 'approved' | 'rejected';
  title: string;
  story_html: string;
  cover_key: string | null;
  media_kind: 'image' | 'video' | 'model' | null;
  media_key: string | null;
  supply: number | null;
  price_fen: number | null;
  sale_start_at: number | null;
  per_identity_limit: number | null;
  holding_days: number | null;
  royalty_permille: number | null;
  review_reason: string | null;
  reviewer_staff_id: number | null;
  project_id: number | null;
  created_at: number;
  updated_at: number;
  submitted_at: number | null;
  reviewed_at: number | null;
}
export interface Database {
  release_drafts: ReleaseDraftsTable;
  users: UsersTable;
  staff: StaffTable;
  staff_sessions: StaffSessionsTable;
  staff_login_failures: StaffLoginFailuresTable;
  audit_log: AuditLogTable;
  user_freezes: UserFreezesTable;
  kyc_revocations: KycRevocationsTable;
  sessions: SessionsTable;
  sms_codes: SmsCodesTable;
  sms_outbox: SmsOutboxTable;
  captcha_challenges: CaptchaChallengesTable;
  kyc_attempts: KycAttemptsTable;
  captcha_tokens: CaptchaTokensTable;
  login_failures: LoginFailuresTable;
  register_failures: RegisterFailuresTable;
  reset_tokens: ResetTokensTable;
  profpics: ProfpicsTable;
  wallet_challenges: WalletChallengesTable;
  chain_meta: ChainMetaTable;
  chain_txs: ChainTxsTable;
  chain_records: ChainRecordsTable;
  realname: RealnameTable;
  creators: CreatorsTable;
  projects: ProjectsTable;
  goods: GoodsTable;
  goods_price_history: GoodsPriceHistoryTable;
  goods_history_actions: GoodsHistoryActionsTable;
  news: NewsTable;
  banners: BannersTable;
  recommend_lists: RecommendListsTable;
  recommend_items: RecommendItemsTable;
  search_history: SearchHistoryTable;
  listings: ListingsTable;
  orders: OrdersTable;
  order_events: OrderEventsTable;
  payments: PaymentsTable;
  ledger_txns: LedgerTxnsTable;
  ledger_entries: LedgerEntriesTable;
  ledger_balances: LedgerBalancesTable;
  jobs: JobsTable;
  worker_lease: WorkerLeaseTable;
  deals: DealsTable;
  bids: BidsTable;
  favorites: FavoritesTable;
  sandbox_trades: SandboxTradesTable;
  catalog_changes: CatalogChangesTable;
  drop_stock: DropStockTable;
  drop_stock_returns: DropStockReturnsTable;
  drop_quota: DropQuotaTable;
  drop_config: DropConfigTable;
  drop_phases: DropPhasesTable;
  drop_phase_quota: DropPhaseQuotaTable;
  drop_whitelist: DropWhitelistTable;
  drop_lotteries: DropLotteriesTable;
  drop_lottery_entries: DropLotteryEntriesTable;
  drop_events: DropEventsTable;
  uploads: UploadsTable;
  settled_applications: SettledApplicationsTable;
  settled_application_files: SettledApplicationFilesTable;
  settled_application_events: SettledApplicationEventsTable;
  privacy_settings: PrivacySettingsTable;
  security_events: SecurityEventsTable;
  mobile_change_tickets: MobileChangeTicketsTable;
  account_cancellations: AccountCancellationsTable;
  data_exports: DataExportsTable;
  goods_holds: GoodsHoldsTable;
  box_releases: BoxReleasesTable;
  box_openings: BoxOpeningsTable;
  compose_rules: ComposeRulesTable;
  compose_records: ComposeRecordsTable;
  goods_transfers: GoodsTransfersTable;
  follows: FollowsTable;
  creator_stats: CreatorStatsTable;
  follow_events: FollowEventsTable;
  creator_moments: CreatorMomentsTable;
  creator_moment_images: CreatorMomentImagesTable;
  tickets: TicketsTable;
  ticket_messages: TicketMessagesTable;
  ticket_attachments: TicketAttachmentsTable;
  ticket_events: TicketEventsTable;
  payout_accounts: PayoutAccountsTable;
  payout_identity: PayoutIdentityTable;
  payout_card_requests: PayoutCardRequestsTable;
  payout_cards: PayoutCardsTable;
  payout_withdrawals: PayoutWithdrawalsTable;
  payout_merchants: PayoutMerchantsTable;
  payout_split_relations: PayoutSplitRelationsTable;
  stray_refunds: StrayRefundsTable;
  sandbox_payouts: SandboxPayoutsTable;
  sandbox_refunds: SandboxRefundsTable;
  card_payments: CardPaymentsTable;
  sandbox_quickpays: SandboxQuickpaysTable;
  sandbox_quickpay_refunds: SandboxQuickpayRefundsTable;
}
