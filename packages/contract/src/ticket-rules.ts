/**
 * Customer-service tickets (issue #11, /personal-center/contact-service): the rules shared by the
 * server (which decides) and the web form (which checks first, with the same texts). No zod here:
 * the web bundle imports this module as values. Schemas: tickets.ts; paths: routes.ts TicketPaths.
 */
import type { MessageKey } from './messages.ts';

/** What a ticket is about (labels live in the web catalogs under tickets.categories). */
export const TICKET_CATEGORIES = ['account', 'order', 'payment', 'collectible', 'realname', 'other'] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];

/**
 * open → answered (staff replied) → open (the user replied again) … → closed (by the user or staff).
 * A closed ticket may be reopened by its user within TICKET_LIMITS.reopenDays of closing.
 */
export const TICKET_STATUSES = ['open', 'answered', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const TICKET_LIMITS = {
  subjectMax: 60,
  contentMax: 2000,
  attachmentsMax: 3,
  /** New tickets per user in any 24 hours. */
  newPerDay: 5,
  /** Messages (first messages and replies) per user in any 24 hours. */
  messagesPerDay: 40,
  /** A closed ticket can be reopened (and so replied to) this many days after it closed. */
  reopenDays: 7,
  orderNoMax: 64,
} as const;

/** A new ticket as the form sends it. */
export interface TicketInput {
  category: string;
  subject: string;
  content: string;
  attachmentKeys: string[];
  orderNo: string;
}

export const TICKET_FIELDS = ['category', 'subject', 'content', 'attachmentKeys', 'orderNo'] as const;
export type TicketField = (typeof TICKET_FIELDS)[number];

/** The server message of each invalid field; the web catalogs hold the same texts under tickets.errors.<field>. */
export const TICKET_FIELD_MESSAGES: Record<TicketField, MessageKey> = {
  category: 'ticketBadCategory',
  subject: 'ticketBadSubject',
  content: 'ticketBadContent',
  attachmentKeys: 'ticketBadAttachments',
  orderNo: 'ticketBadOrderNo',
};

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const CONTROL_OR_NEWLINE = /[\u0000-\u001f\u007f]/;
const ORDER_NO = /^[A-Za-z0-9_-]{1,64}$/;
const chars = (s: string) => [...s].length;

/** A message text: 1–2000 characters after trimming, newlines allowed, no other control characters. */
export function validTicketContent(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const s = v.trim();
  return s.length > 0 && chars(s) <= TICKET_LIMITS.contentMax && !CONTROL.test(s);
}

/** At most three attachment keys, no repeats. */
export function validTicketAttachments(v: unknown): boolean {
  return Array.isArray(v) && v.length <= TICKET_LIMITS.attachmentsMax && v.every((k) => typeof k === 'string' && k.length > 0 && k.length <= 200) && new Set(v).size === v.length;
}

/** The invalid fields of a new ticket, in the form's order (empty when it may be submitted). */
export function invalidTicketFields(t: TicketInput): TicketField[] {
  const bad: TicketField[] = [];
  if (!(TICKET_CATEGORIES as readonly string[]).includes(t.category)) bad.push('category');
  const subject = t.subject.trim();
  if (!subject || chars(subject) > TICKET_LIMITS.subjectMax || CONTROL_OR_NEWLINE.test(subject)) bad.push('subject');
  if (!validTicketContent(t.content)) bad.push('content');
  if (!validTicketAttachments(t.attachmentKeys)) bad.push('attachmentKeys');
  const orderNo = t.orderNo.trim();
  if (orderNo && !ORDER_NO.test(orderNo)) bad.push('orderNo');
  return bad;
}

/** Until when a ticket closed at `closedAt` can be reopened (epoch ms). */
export const reopenDeadline = (closedAt: number) => closedAt + TICKET_LIMITS.reopenDays * 86_400_000;
