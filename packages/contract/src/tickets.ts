import { z } from 'zod';
import { envelope } from './envelope.ts';
import { idParam, page, pageNum, pageSize } from './paging.ts';
import { TICKET_CATEGORIES, TICKET_STATUSES } from './ticket-rules.ts';

/**
 * Customer-service tickets (issue #11): the user's side of /api/user/service/v1/ticket/*. The body
 * schemas only bound sizes and types: the rules with their clear messages are ticket-rules.ts
 * (invalidTicketFields), applied by the server.
 */
const text = (max: number) => z.string().max(max).nullish().transform((v) => v ?? '');
const keyList = z.array(z.string().max(200)).max(10).nullish().transform((v) => v ?? []);

export const ticketCreateBody = z.object({
  category: text(32),
  subject: text(500),
  content: text(20_000),
  attachmentKeys: keyList,
  /** A related order of mine (optional). */
  orderNo: text(100),
});
export type TicketCreateBody = z.input<typeof ticketCreateBody>;

export const ticketListBody = z.object({ pageNum, pageSize, status: z.enum(TICKET_STATUSES).nullish() });
export const ticketIdBody = z.object({ id: idParam });
export const ticketReplyBody = z.object({ id: idParam, content: text(20_000), attachmentKeys: keyList });

export const ticketAttachment = z.object({
  key: z.string(),
  /** The owner's download path (private files: fetched with the token header). */
  url: z.string(),
  name: z.string(),
  type: z.string(),
  size: z.number().int(),
});
export const ticketMessage = z.object({
  id: z.number().int(),
  /** Who wrote it: the user, or customer service (staff are never named). */
  author: z.enum(['user', 'staff']),
  content: z.string(),
  attachments: z.array(ticketAttachment),
  createdAt: z.number().int(),
});
export const ticketSummary = z.object({
  id: z.number().int(),
  category: z.enum(TICKET_CATEGORIES),
  subject: z.string(),
  status: z.enum(TICKET_STATUSES),
  orderNo: z.string().nullable(),
  /** Staff replies the user has not opened yet. */
  unread: z.number().int(),
  createdAt: z.number().int(),
  lastMessageAt: z.number().int(),
  closedAt: z.number().int().nullable(),
  closedBy: z.enum(['user', 'staff']).nullable(),
  /** Until when the user may reopen it (closed tickets), else null. */
  reopenUntil: z.number().int().nullable(),
});
export const ticketDetail = ticketSummary.extend({ messages: z.array(ticketMessage) });
export type TicketSummary = z.infer<typeof ticketSummary>;
export type TicketDetail = z.infer<typeof ticketDetail>;
export type TicketMessage = z.infer<typeof ticketMessage>;

export const ticketListResponse = envelope(
  page(ticketSummary)
    .extend({
      /** Tickets with an unread staff reply (all of mine, not only this page). */
      unreadTickets: z.number().int(),
      /** How many new tickets I may still open in the current 24 hours. */
      remainingToday: z.number().int(),
    })
    .nullable(),
);
export const ticketDetailResponse = envelope(ticketDetail.nullable());
export const ticketUnreadResponse = envelope(z.object({ unreadTickets: z.number().int() }).nullable());
