import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParam } from '@cfx/contract/paging.ts';
import * as T from '@cfx/contract/tickets.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { ok } from '../../http/envelope.ts';
import { closeTicket, replyTicket } from './transitions.ts';

/** DEV_MODE only, hidden from the API docs: the caller acts as customer service (browser tests). */
export const DEV_TICKET_PATHS = { reply: '/dev/ticket-reply', close: '/dev/ticket-close' } as const;

/**
 * Customer service's side for the browser tests until the admin console exists: any logged-in
 * caller answers or closes a ticket through replyTicket / closeTicket, exactly as staff code will.
 * Registered by app.ts only with DEV_MODE=1.
 */
export function devTicketRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const schema = { hide: true, tags: ['dev'], response: { 200: T.ticketDetailResponse } };
  r.post(DEV_TICKET_PATHS.reply, { schema: { ...schema, body: z.object({ id: idParam, text: z.string().max(20_000) }) } }, async (req) => {
    return ok(req, await replyTicket(ctx, await requireUserId(ctx, req), req.body.id, req.body.text));
  });
  r.post(DEV_TICKET_PATHS.close, { schema: { ...schema, body: z.object({ id: idParam }) } }, async (req) => {
    return ok(req, await closeTicket(ctx, await requireUserId(ctx, req), req.body.id));
  });
}
