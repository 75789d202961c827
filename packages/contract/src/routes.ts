/** Paths of the gateway (relative to API_BASE), shared by server and web. */
export const UserPaths = {
  smscode: '/api/user/v1/smscode',
  register: '/api/user/v1/regist',
  login: '/api/user/v1/login',
  logout: '/api/user/v1/logout',
  walletlogin: '/api/user/v1/walletlogin',
  walletchallenge: '/api/user/v1/walletchallenge',
  walletlogout: '/api/user/v1/walletlogout',
  walletloginstatus: '/api/user/v1/walletloginstatus',
  userprofile: '/api/user/profile/v1/userprofile',
  checkmobile: '/api/user/findpwd/v1/checkmobile',
  reset: '/api/user/findpwd/v1/reset',
  profpicList: '/api/user/profile/v1/profpic/list',
  changeprofpic: '/api/user/profile/v1/changeprofpic',
  modifynickname: '/api/user/profile/v1/modifynickname',
  getinvitecode: '/api/user/v1/getinvitecode',
  securitySetting: '/api/user/profile/v1/security/setting',
  privacySetting: '/api/user/profile/v1/privacy/other/getsetting',
  mobileSmscode: '/api/user/v1/mobile/smscode',
  getrealnameinfo: '/api/user/profile/v1/getrealnameinfo',
  submitrealname: '/api/user/profile/v1/submitrealname',
} as const;

/**
 * Security and privacy of the personal center (issue #11; not in the spec beyond security/setting,
 * privacy/other/getsetting and mobile/smscode). Schemas: account-security.ts.
 */
export const SecurityPaths = {
  /** {oldPwd?, newPwd, smsCode?} — change the password while logged in. */
  changePassword: '/api/user/profile/v1/security/changepwd',
  /** My sessions (devices), the current one flagged. */
  sessions: '/api/user/profile/v1/security/sessions',
  /** {id} or {others: true} */
  revokeSessions: '/api/user/profile/v1/security/sessions/revoke',
  /** My latest security log entries. */
  events: '/api/user/profile/v1/security/events',
  /** Phone change step 1: {smsCode} of the security code (type 4) → a ticket. */
  mobileVerify: '/api/user/v1/mobile/verify',
  /** Step 2: {ticket, mobile, NECaptchaValidate} → a type-5 code to the new phone. */
  mobileNewCode: '/api/user/v1/mobile/newsmscode',
  /** Step 3: {ticket, mobile, smsCode} → the phone is changed. */
  mobileChange: '/api/user/v1/mobile/change',
  /** {showCollection?, personalizedRecommend?} — the setter of privacy/other/getsetting. */
  privacySet: '/api/user/profile/v1/privacy/other/setsetting',
  /** {accountId, pageNum, pageSize} — a user's collection on public pages (empty and hidden when they switched it off). */
  userCollection: '/goods/v1/list/userCollection',
  /** Account cancellation: checklist, cooling-off state. */
  cancelStatus: '/api/user/profile/v1/cancel/status',
  /** {smsCode, confirm: true} */
  cancelApply: '/api/user/profile/v1/cancel/apply',
  cancelRevoke: '/api/user/profile/v1/cancel/revoke',
  /** {smsCode?} → a short-lived download link of my personal data (JSON). */
  exportApply: '/api/user/profile/v1/export/apply',
  /** GET ?t= — the export itself (attachment). */
  exportDownload: '/api/user/profile/v1/export/download',
} as const;

export const CaptchaPaths = {
  get: '/captcha/v1/get',
  check: '/captcha/v1/check',
} as const;

export const DevPaths = {
  captchaToken: '/dev/captcha-token',
  smsOutbox: '/dev/sms-outbox',
  /** Embedded dev chain only: a new collectible for the caller, minted to the linked wallet by the mint job. */
  grantCollectible: '/dev/grant-collectible',
  /** Dev mode only: a new release on sale as a drop (browser tests, trying the primary sale). */
  createDropRelease: '/dev/drop-release',
  /** Dev mode only: a release with sale phases / a lottery (browser tests, trying them). */
  createPhasedRelease: '/dev/drop-phases',
  /** Dev mode only: makes the caller a creator (browser tests of the creator page). */
  makeCreator: '/dev/make-creator',
} as const;

export const ChainPaths = {
  info: '/chain/v1/info',
  rpc: '/chain/v1/rpc',
  /** GET ?epoch= — the pivot block of an epoch, read-only and rate-limited per client IP: what a lottery or box proof checks its block hash against. */
  block: '/chain/v1/block',
  /** GET ?tokenId= — the asset page's chain record. */
  chainRecord: '/goods/v1/list/chainRecord/',
} as const;

/** Releases, collectibles and creators. GETs take their parameters in the query string. */
export const CatalogPaths = {
  projectIndex: '/goods/v1/project/index',
  projectDetails: '/goods/v1/project/details',
  /** GET ?id= */
  projectSubSale: '/goods/v1/project/subSale/',
  projectDetailsTitle: '/goods/v1/project/detailsTitle/',
  /** GET */
  findAll: '/goods/v1/findAll/',
  creatorProjects: '/goods/v1/project/queryCreatorProjectAccountId',
  goodsList: '/goods/v1/list/index',
  /** GET ?id= */
  goodsDetails: '/goods/v1/details/',
  /** GET */
  commonInfo: '/goods/v1/commonInfo/',
  /** GET ?id=&limit= */
  historyPrice: '/goods/v1/list/historyPrice/',
  /** GET ?id=&pageNum=&pageSize= */
  historyAction: '/goods/v1/list/historyAction/',
  listHead: '/goods/v1/list/head',
  /** GET */
  filterMeta: '/background/nftMarket/v1/getFilterRelatedMetaInfo',
  creatorQuery: '/api/creator/v1/query',
  /** Not in the spec: the creators directory. */
  creatorList: '/api/creator/v1/list',
} as const;

/**
 * Follow and creators (payloads designed here: creators.ts, docs/api.md
 * "Follow and creators"). The moment create call and the follow list / feed are not in the spec.
 */
export const CreatorPaths = {
  /** {creatorId, follow: boolean} — idempotent. */
  follow: '/api/follow/v1/follow',
  /** {pageNum, pageSize} — the creators I follow. */
  followList: '/api/follow/v1/list',
  /** {pageNum, pageSize} — moments of the creators I follow, newest first. */
  followMoments: '/api/follow/v1/moments',
  /** The creator's own profile edit. */
  update: '/api/creator/v1/update',
  /** {creatorId | accountId | neither = mine} — media links and stats. */
  mediaInfo: '/api/user/creator/v1/selectCreatorMediaRelatedInfo',
  /** {creatorId | accountId, pageNum, pageSize} — public, newest first. */
  listMoments: '/api/user/creator/v1/listCreatorFriendsMoments',
  /** {content, imageKeys} — a creator posts a moment. */
  addMoment: '/api/user/creator/v1/addCreatorFriendsMoments',
  /** {id} — own moments only (soft delete). */
  deleteMoment: '/api/user/creator/v1/deleteCreatorFriendsMoments',
  /** POST multipart (one file part) — a creator's image: avatar, banner, moment images. */
  upload: '/api/user/creator/v1/upload',
} as const;

/** News, banners, recommend lists and generated images; `official` / `background` paths answer code 200. */
export const ContentPaths = {
  /** GET */
  indexBanner: '/goods/v1/list/indexBanner',
  /** GET ?pageNum=&pageSize=&category= */
  newsList: '/official/news/list',
  /** GET /official/news/{id} */
  newsItem: '/official/news/:id',
  /** GET */
  newsHot: '/official/news/v2/newsHostList',
  /** GET */
  newsBanners: '/official/news/newsBannerList',
  /** GET */
  newsPlace: '/official/news/v2/newsPlaceList',
  bannerList: '/background/banner/list',
  recommendList: '/background/getRecommendList',
  /** GET ?id=&w= — image/svg+xml */
  image: '/official/image/',
} as const;

export const SearchPaths = {
  query: '/search/v1/query',
  queryFinal: '/search/v1/queryFinal',
  /** GET */
  history: '/search/v1/searchHistory',
  delHistory: '/search/v1/delHistory/',
} as const;

/** The consignment market: selling, bids and personal calls. GETs take their parameters in the query string. */
export const MarketPaths = {
  /** GET ?price=&goodsId= */
  cost: '/goods/v1/cost',
  preOpenSale: '/goods/v1/preOpenSale',
  openSale: '/goods/v1/openSale',
  closeSale: '/goods/v1/closeSale',
  openAndCloseNotify: '/goods/v1/openAndCloseNotify',
  mySell: '/goods/v1/mySell',
  /** Bids: the paths keep the published API's spelling ("bargin"); the keys are spelled right. */
  bargain: '/goods/v1/bargin',
  bargainList: '/goods/v1/barginList',
  agreeBargain: '/goods/v1/agreeBargin/',
  /** GET ?id= */
  cancelBargain: '/goods/v1/cancelBargin/',
  myBargainList: '/goods/v1/myBarginList',
  bargainListStatistics: '/goods/v1/barginListStatistics',
  love: '/goods/v1/love',
  favorite: '/goods/v1/list/favorite',
  home: '/goods/v1/list/home',
} as const;

/** Orders, payment, deal records and the platform balance. */
export const OrderPaths = {
  createOrder: '/payment/nftOrder/V1/createOrder',
  getNftOrderDetail: '/payment/nftOrder/V1/getNftOrderDetail',
  pay: '/payment/nftOrder/V1/pay',
  queryAmount: '/payment/nftOrder/V1/queryAmount',
  /** The path keeps the published API's spelling; the key is spelled right. */
  cancelOrder: '/payment/nftOrder/V1/cannelOrder',
  queryNftOrderList: '/payment/nftOrder/V1/queryNftOrderList',
  pageListNftOrder: '/payment/nftOrder/V1/pageListNftOrder',
  dealRecords: '/payment/nftDealRecord/V1/pageListNftDealRecordByParams',
  /** GET — not in the spec: the user's platform balance from the ledger. */
  balance: '/payment/account/V1/queryBalance',
  /** GET ?t= — the sandbox provider's cashier page (HTML). */
  sandboxCashier: '/payment/sandbox/cashier',
  /** The sandbox cashier's pay / cancel buttons. */
  sandboxConfirm: '/payment/sandbox/confirm',
  /** Sandbox only: credit the platform balance (a sandbox top-up). */
  sandboxTopup: '/payment/sandbox/topup',
  /** GET ?t= — the WeChat Pay sandbox's "scan and pay" page (HTML): the sandbox code_url. */
  sandboxWechatScan: '/payment/sandbox/wechat/scan',
  /** The WeChat Pay sandbox page's 确认支付 button {t}: records the trade and sends the signed notify. */
  sandboxWechatPay: '/payment/sandbox/wechat/pay',
} as const;

/** The primary sale (drops, docs/drops.md). createOrder {projectId, count} is OrderPaths.createOrder. */
export const DropPaths = {
  /** GET ?projectId= — my purchase limit of a release (per real-name identity), bought and remaining. */
  nowStint: '/official/stint/nowStint/',
} as const;

/**
 * Blind boxes, compose / fragments, shift and gifts (issue #10, docs/drops.md). Schemas:
 * goods-flows.ts. GETs take their parameters in the query string.
 */
export const GoodsFlowPaths = {
  /** GET ?projectId= — a box release's odds, commitment, reveal epoch and (after the reveal) the proof; null data for other releases. */
  boxInfo: '/goods/v1/box/info/',
  /** GET ?goodsId= — open my box: the Consume typed data to sign (or the opening's state). */
  openBox: '/goods/v1/openBox/',
  /** {goodsId, signature} — the signed consent; the operator sends consumeAndMint. */
  openBoxConfirm: '/goods/v1/openBox/confirm',
  /** {projectId, pageNum, pageSize} — my fragments of one release with counts. */
  chip: '/goods/v1/chip',
  /** {} — all my fragments grouped by release. */
  chipAll: '/goods/v1/chipAll',
  /** {ruleId?, pageNum, pageSize} — compose rules with my progress per ingredient. */
  composeRule: '/api/compose/v1/composerule',
  /** {ruleId} — my fragments per ingredient, usable ones first. */
  getFragmentList: '/api/compose/v1/getfragmentlist',
  /** {ruleId, goodsIds} — check a selection and reserve it for a few minutes. */
  selectFragment: '/api/compose/v1/selectfragment',
  /** {composeNo} or {ruleId, goodsIds} — reserve a result and get the Consume typed data. */
  confirmCompose: '/api/compose/v1/confirmcompose',
  /** {composeNo, signature} — the operator burns the fragments and mints the result in one transaction. */
  submitCompose: '/api/compose/v1/submitcompose',
  /** {composeNo?, pageNum, pageSize} — my composes with their state. */
  composeRecord: '/api/compose/v1/composerecord',
  /** GET ?goodsId= — can it be moved / given now, and until when not. */
  queryShiftStatus: '/goods/v1/queryShiftStatus/',
  /** {goodsId, toAddress} — move to another own address (the wallet sends transferFrom). */
  shift: '/goods/v1/shift',
  /** {goodsId, mobile | accountId} — give to another real-named user (转赠). */
  gift: '/goods/v1/gift',
  /** {mobile | accountId} — who would receive a gift and whether they can. */
  giftReceiver: '/goods/v1/gift/receiver',
  /** {transferNo, txHash?} — the wallet sent the transfer: re-read the chain now. */
  shiftNotify: '/goods/v1/shift/notify',
  /** {kind?, pageNum, pageSize} — my moves and gifts, sent and received. */
  shiftRecord: '/goods/v1/shift/record',
  /** DEV_MODE only (hidden from the docs): a box release with boxes for the caller. */
  devBoxRelease: '/dev/box-release',
  /** DEV_MODE only (hidden from the docs): fragments for the caller and a compose rule taking them. */
  devComposeRule: '/dev/compose-rule',
} as const;

/**
 * Sale phases, the whitelist, the free claim and the lottery
 * (docs/drops.md "Sale phases"). Schemas: drop-phases.ts. nftmint's failures skip the default
 * error handling; `official` paths answer code 200.
 */
export const MintPaths = {
  /** {projectId} → am I whitelisted, my quota, used, the phase windows. */
  whitelist: '/api/user/mint/v1/whitelist',
  /** {projectId} → the current phase, its price, the stock, my quota in it, my lottery entry. */
  mintinfo: '/api/user/mint/v1/mintinfo',
  /** {projectId, count} → the free claim order (OrderDetail). */
  nftmint: '/api/user/mint/v1/nftmint',
  /** GET ?projectId= → public mint page data (phases with times, supply, minted); without projectId the releases with phases not over. */
  official: '/official/mint/',
} as const;

export const LotteryPaths = {
  /** {projectId} → my entry number (one entry per real-name identity). */
  enter: '/api/user/mint/v1/lottery/enter',
  /** GET ?projectId= → the draw's inputs and results, for anyone to recompute. */
  proof: '/official/lottery/proof/',
} as const;

/**
 * Project application. `official` paths answer code 200 on success
 * The two oss calls are multipart/form-data with one file part; the rest JSON.
 */
export const SettledPaths = {
  /** POST — submit an application. */
  submit: '/official/settled',
  /** GET — my applications with their status (not in the spec). */
  mine: '/official/settled/mine',
  /** POST multipart — an image (artwork): JPEG, PNG, WebP or GIF. */
  upload: '/official/settled/oss/upload',
  /** POST multipart — a document (qualification): PDF, ZIP, DOCX or a JPEG/PNG scan. */
  uploadFile: '/official/settled/oss/uploadfile',
  /** GET ?key= — a private upload (documents) for its owner (not in the spec). */
  file: '/official/settled/oss/file',
} as const;

/** Uploaded public files (images), outside the gateway: `/media/uploads/<key>`. */
export const MEDIA_UPLOADS_PREFIX = '/media/uploads/';

/** Asynchronous payment notifications from the providers (outside the gateway: they answer `success` / `failure` as text). */
export const PaymentNotifyPaths = {
  sandbox: '/mvapi/notify/sandbox',
  alipay: '/mvapi/notify/alipay',
  /** WeChat Pay APIv3: JSON body, Wechatpay-* signature headers; payments and refunds. */
  wechat: '/mvapi/notify/wechat',
} as const;

/** Invite records (issue #11): {pageNum, pageSize} → the users I invited, masked. Schemas: invites.ts. */
export const InvitePaths = {
  records: '/api/user/v1/inviterecords',
} as const;

/** Customer-service tickets (issue #11, /personal-center/contact-service). Schemas: tickets.ts, rules: ticket-rules.ts. */
export const TicketPaths = {
  /** {category, subject, content, attachmentKeys?, orderNo?} → the new ticket. */
  create: '/api/user/service/v1/ticket/create',
  /** {pageNum, pageSize, status?} → my tickets, newest activity first. */
  list: '/api/user/service/v1/ticket/list',
  /** {id} → the ticket and its messages (marks staff replies read). */
  detail: '/api/user/service/v1/ticket/detail',
  /** {id, content, attachmentKeys?} */
  reply: '/api/user/service/v1/ticket/reply',
  /** {id} */
  close: '/api/user/service/v1/ticket/close',
  /** {id} — within the reopen window after closing. */
  reopen: '/api/user/service/v1/ticket/reopen',
  /** → {unreadTickets}: the personal-center menu's indicator. */
  unread: '/api/user/service/v1/ticket/unread',
  /** POST multipart — a screenshot (private image) to attach; read back with SettledPaths.file. */
  upload: '/api/user/service/v1/ticket/upload',
} as const;

/** Share posters (issue #11): GET ?type=goods|project&id=&inviteCode=&lang= → PNG. Schema: poster.ts. */
export const PosterPaths = {
  poster: '/official/poster/',
} as const;

/**
 * The message center (issue #11, docs/api.md "Messages"). Schemas: user-messages.ts. msglist,
 * getmsgsetting and submitmsg are the spec's names (submitmsg saves the settings).
 */
export const MessagePaths = {
  /** {pageNum, pageSize, kind?, unread?} → my messages, newest first (reading marks nothing). */
  msglist: '/api/user/message/v1/msglist',
  /** → per-kind in-app / SMS settings. */
  getmsgsetting: '/api/user/message/v1/getmsgsetting',
  /** {items: [{kind, inApp?, sms?}]} → saves them. */
  submitmsg: '/api/user/message/v1/submitmsg',
  /** {ids} or {all: true, kind?} → marks read. */
  read: '/api/user/message/v1/read',
  /** → {count, byKind} */
  unread: '/api/user/message/v1/unread',
  /** → a single-use stream ticket (30 s). */
  streamTicket: '/api/user/message/v1/stream/ticket',
  /** GET ?ticket= → text/event-stream of `unread` and `message` events. */
  stream: '/api/user/message/v1/stream',
  /** {projectId, on?} → subscribe to (or cancel) the reminder before a release's sale start. */
  remind: '/api/user/message/v1/remind',
  /** {projectId} → my reminder of a release. */
  remindStatus: '/api/user/message/v1/remind/status',
} as const;
