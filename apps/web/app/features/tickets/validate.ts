import { invalidTicketFields, TICKET_LIMITS, type TicketField } from '@cfx/contract/ticket-rules.ts';
import type { NewTicket } from './api/tickets.ts';

/** The form's first invalid field (the server's own rules and order), or undefined when it may be sent. */
export function firstInvalid(form: NewTicket): TicketField | undefined {
  return invalidTicketFields(form)[0];
}

/** Characters as the server counts them (code points: 汉字 and emoji count once). */
export const charCount = (s: string) => [...s.trim()].length;

/** May the user still reopen a ticket closed until `reopenUntil` at time `now`? */
export const canReopen = (t: { status: string; reopenUntil: number | null }, now: number) => t.status === 'closed' && t.reopenUntil !== null && now <= t.reopenUntil;

export { TICKET_LIMITS };
