import { TicketPaths, SettledPaths } from '@cfx/contract/routes.ts';
import type { TicketDetail, TicketSummary } from '@cfx/contract/tickets.ts';
import type { TicketStatus } from '@cfx/contract/ticket-rules.ts';
import type { Page } from '@cfx/contract/paging.ts';
import { api, apiData, API_BASE, type ApiResult } from '../../../lib/api.ts';
import { useUserStore } from '../../../stores/user.ts';

export type { TicketDetail, TicketSummary };
export type TicketPage = Page<TicketSummary> & { unreadTickets: number; remainingToday: number };

export interface NewTicket {
  category: string;
  subject: string;
  content: string;
  attachmentKeys: string[];
  orderNo: string;
}

export const listTickets = (pageNum: number, pageSize: number, status?: TicketStatus) =>
  apiData<TicketPage>(TicketPaths.list, { pageNum, pageSize, ...(status ? { status } : {}) });
export const getTicket = (id: number) => apiData<TicketDetail>(TicketPaths.detail, { id });
export const ticketUnread = () => apiData<{ unreadTickets: number }>(TicketPaths.unread, {}, { silent: true });
/** These show the server's refusal themselves (the form keeps its input): no default toast. */
export const createTicket = (body: NewTicket): Promise<ApiResult<TicketDetail>> => api<TicketDetail>(TicketPaths.create, body, { silent: true });
export const replyTicket = (id: number, content: string, attachmentKeys: string[]) => api<TicketDetail>(TicketPaths.reply, { id, content, attachmentKeys }, { silent: true });
export const closeTicket = (id: number) => api<TicketDetail>(TicketPaths.close, { id });
export const reopenTicket = (id: number) => api<TicketDetail>(TicketPaths.reopen, { id });

/**
 * An attachment (a private upload) as an object URL: the owner's download path needs the token
 * header, which an <img src> cannot send. The caller revokes the URL.
 */
export async function attachmentObjectUrl(key: string, signal?: AbortSignal): Promise<string> {
  const token = useUserStore.getState().token;
  const res = await fetch(`${API_BASE}${SettledPaths.file}?key=${encodeURIComponent(key)}`, { headers: token ? { token, channel: 'pc' } : {}, signal });
  if (!res.ok || !(res.headers.get('content-type') ?? '').startsWith('image/')) throw new Error(`attachment ${res.status}`);
  return URL.createObjectURL(await res.blob());
}
