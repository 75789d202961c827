import { z } from 'zod';
import { envelope } from './envelope.ts';
import { idParam, page, paging } from './paging.ts';

/**
 * The message center (issue #11, docs/api.md "Messages"): in-app messages about the user's own
 * trades and subscriptions, their per-kind settings (in-app / SMS), the live stream of the unread
 * count and new messages (SSE), and "remind me" subscriptions to a release's sale start.
 *
 * A message is stored as i18n keys + parameters and rendered in the reader's language when it is
 * read (NOTICE_TEXTS below), so switching the language re-renders old messages too.
 */
export const MESSAGE_KINDS = ['sold', 'bid_received', 'bid_accepted', 'order_expiring', 'order_expired', 'order_refunded', 'drop_starting', 'lottery_result', 'service_reply', 'application_approved', 'release_review'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];
export const messageKind = z.enum(MESSAGE_KINDS);

/** Defaults without a saved setting: every kind in the message center; SMS only for a sale and an order about to expire. */
export const DEFAULT_MESSAGE_SETTINGS: Record<MessageKind, { inApp: boolean; sms: boolean }> = {
  sold: { inApp: true, sms: true },
  bid_received: { inApp: true, sms: false },
  bid_accepted: { inApp: true, sms: false },
  order_expiring: { inApp: true, sms: true },
  order_expired: { inApp: true, sms: false },
  order_refunded: { inApp: true, sms: false },
  drop_starting: { inApp: true, sms: false },
  lottery_result: { inApp: true, sms: false },
  service_reply: { inApp: true, sms: false },
  application_approved: { inApp: true, sms: false },
  release_review: { inApp: true, sms: false },
};

/**
 * Texts of the messages (title and body per template), zh / en. Placeholders `{x}` are filled from
 * the stored parameters; a parameter named `xFen` also fills `{x}` as money (￥1,234.56) and one
 * named `xAt` (epoch ms) fills `{x}` as a China Standard Time date and time (2026-01-02 15:04).
 */
export const NOTICE_TEXTS = {
  'sold.title': { zh: '藏品已售出', en: 'Collectible sold' },
  'sold.body': {
    zh: '您的藏品《{name}》#{serial}已以{price}成交，扣除费用后{income}已计入您的余额。',
    en: 'Your collectible "{name}" #{serial} sold for {price}; {income} after fees has been credited to your balance.',
  },
  'bid_received.title': { zh: '收到新的出价', en: 'New bid received' },
  'bid_received.body': {
    zh: '有人对您的藏品《{name}》#{serial}出价{amount}，出价有效期至{expires}。',
    en: 'Someone bid {amount} on your collectible "{name}" #{serial}; the bid is valid until {expires}.',
  },
  'bid_accepted.title': { zh: '出价已被接受', en: 'Your bid was accepted' },
  'bid_accepted.body': {
    zh: '您对《{name}》#{serial}的出价{amount}已被接受，请在{deadline}前完成支付。',
    en: 'Your bid of {amount} for "{name}" #{serial} was accepted; please pay before {deadline}.',
  },
  'order_expiring.title': { zh: '订单即将超时', en: 'Order about to expire' },
  'order_expiring.body': {
    zh: '订单{orderNo}（{name}，{price}）将于{deadline}关闭，请尽快完成支付。',
    en: 'Order {orderNo} ({name}, {price}) closes at {deadline}; please pay before then.',
  },
  'order_expired.title': { zh: '订单已超时关闭', en: 'Order expired' },
  'order_expired.body': {
    zh: '订单{orderNo}（{name}，{price}）未在支付时限内完成支付，已自动关闭。',
    en: 'Order {orderNo} ({name}, {price}) was not paid in time and has been closed.',
  },
  'order_refunded.title': { zh: '订单已退款', en: 'Order refunded' },
  'order_refunded.body': {
    zh: '订单{orderNo}（{name}）中有{count}份藏品无法上链，{amount}已退回您的平台余额。',
    en: 'In order {orderNo} ({name}), {count} collectible(s) could not be minted; {amount} has been refunded to your platform balance.',
  },
  'drop_starting.title': { zh: '发售即将开始', en: 'Sale starting soon' },
  'drop_starting.body': {
    zh: '您订阅的《{name}》将于{start}开售，单价{price}。',
    en: '"{name}", which you asked to be reminded of, goes on sale at {start} for {price} each.',
  },
  'lottery_won.title': { zh: '恭喜中签', en: 'You won the lottery' },
  'lottery_won.body': {
    zh: '您参与的《{name}》抽签结果已公布：恭喜中签，您可购买{count}份，请在{deadline}前完成购买。',
    en: 'The lottery for "{name}" has been drawn: you won the right to buy {count}; please buy before {deadline}.',
  },
  'service_reply.title': { zh: '客服回复了您的工单', en: 'Customer service replied' },
  'service_reply.body': {
    zh: '您的工单「{subject}」有新的客服回复，请前往联系客服查看。',
    en: 'Your ticket "{subject}" has a new reply from customer service; open Contact customer service to read it.',
  },
  'application_approved.title': { zh: '项目入驻申请已通过', en: 'Project application approved' },
  'application_approved.body': {
    zh: '您的项目入驻申请《{project}》已审核通过，您已成为平台创作者，可前往创作者主页完善资料。',
    en: 'Your project application "{project}" has been approved: you are now a creator on the platform; open your creator page to complete your profile.',
  },
  'release_approved.title': { zh: '发售审核已通过', en: 'Release approved' },
  'release_approved.body': {
    zh: '您提交的发售《{name}》已审核通过，将于{start}开售。',
    en: 'Your release "{name}" has been approved and goes on sale at {start}.',
  },
  'release_rejected.title': { zh: '发售审核未通过', en: 'Release not approved' },
  'release_rejected.body': {
    zh: '您提交的发售《{name}》未通过审核，原因：{reason}。修改后可重新提交。',
    en: 'Your release "{name}" was not approved. Reason: {reason}. You can edit it and submit it again.',
  },
  'lottery_lost.title': { zh: '抽签结果', en: 'Lottery result' },
  'lottery_lost.body': {
    zh: '您参与的《{name}》抽签结果已公布：很遗憾，您未中签。',
    en: 'The lottery for "{name}" has been drawn: unfortunately you were not selected.',
  },
} as const satisfies Record<string, { zh: string; en: string }>;
export type NoticeTextKey = keyof typeof NOTICE_TEXTS;
/** The template (NOTICE_TEXTS prefix) a message uses: its kind, except the lottery's two outcomes. */
export type NoticeTemplate = Exclude<MessageKind, 'lottery_result' | 'release_review'> | 'lottery_won' | 'lottery_lost' | 'release_approved' | 'release_rejected';

/** One message, rendered in the reader's language. */
export const messageItem = z.object({
  id: z.number().int(),
  kind: messageKind,
  title: z.string(),
  body: z.string(),
  /** A site path to open (the order, the collectible, the release), or null. */
  link: z.string().nullable(),
  read: z.boolean(),
  readAt: z.number().int().nullable(),
  createdAt: z.number().int(),
});
export type MessageItem = z.infer<typeof messageItem>;

const boolLike = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')]);

/** msglist: newest first; `kind` filters one kind, `unread: true` only unread ones. Reading the list marks nothing read. */
export const msglistBody = z.object({
  ...paging,
  kind: messageKind.nullish(),
  unread: boolLike.nullish(),
});
export const msglistData = page(messageItem).extend({ unread: z.number().int() });
export const msglistResponse = envelope(msglistData.nullable());

/** Unread counts: the total and per kind (kinds without unread messages are 0). */
export const unreadData = z.object({ count: z.number().int(), byKind: z.record(messageKind, z.number().int()) });
export const unreadResponse = envelope(unreadData.nullable());

/** Mark read: `ids` (at most 100 of the caller's messages) or `all: true` (optionally only of `kind`). */
export const markReadBody = z
  .object({
    ids: z.array(idParam).max(100).nullish(),
    all: boolLike.nullish(),
    kind: messageKind.nullish(),
  })
  .refine((b) => (b.ids && b.ids.length > 0) || b.all === true, 'ids or all');
export const markReadData = z.object({ updated: z.number().int(), unread: z.number().int() });
export const markReadResponse = envelope(markReadData.nullable());

export const messageSetting = z.object({ kind: messageKind, inApp: z.boolean(), sms: z.boolean() });
export type MessageSetting = z.infer<typeof messageSetting>;
/** getmsgsetting: every kind in MESSAGE_KINDS order; `smsAvailable` false when the account has no phone that can receive SMS. */
export const messageSettingsData = z.object({ items: z.array(messageSetting), smsAvailable: z.boolean() });
export const messageSettingsResponse = envelope(messageSettingsData.nullable());
/** submitmsg saves settings: any subset of kinds, each with inApp and/or sms (what is left out keeps its value). */
export const submitmsgBody = z.object({
  items: z
    .array(z.object({ kind: messageKind, inApp: z.boolean().optional(), sms: z.boolean().optional() }))
    .min(1)
    .max(MESSAGE_KINDS.length * 2),
});

/** A single-use ticket for the SSE stream (EventSource cannot send the token header). */
export const streamTicketData = z.object({ ticket: z.string(), expiresInMs: z.number().int() });
export const streamTicketResponse = envelope(streamTicketData.nullable());
export const streamQuery = z.object({ ticket: z.string().max(200).optional(), lang: z.enum(['zh', 'en']).optional() });

/** "Remind me" before a release's sale start. */
export const remindBody = z.object({ projectId: idParam, on: boolLike.nullish() });
export const remindStatusBody = z.object({ projectId: idParam });
export const remindData = z.object({
  projectId: z.number().int(),
  subscribed: z.boolean(),
  saleStartAt: z.number().int(),
  /** When the reminder is due (sale start − DROP_REMIND_MINUTES); null when not subscribed. */
  remindAt: z.number().int().nullable(),
  /** Already sent (the reminder is sent once per user per release). */
  notified: z.boolean(),
});
export type RemindData = z.infer<typeof remindData>;
export const remindResponse = envelope(remindData.nullable());

/** Events of the stream (`event:` name → JSON `data:`). */
export type StreamEvent =
  | { event: 'unread'; data: { count: number } }
  | { event: 'message'; data: MessageItem }
  | { event: 'logout'; data: Record<string, never> };
