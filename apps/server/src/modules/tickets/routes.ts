import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { TicketPaths } from '@cfx/contract/routes.ts';
import * as S from '@cfx/contract/settled.ts';
import * as T from '@cfx/contract/tickets.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId } from '../accounts/index.ts';
import { ok } from '../../http/envelope.ts';
import { filePart, saveUpload } from '../uploads/index.ts';
import { TICKET_IMAGE_POLICY } from './attachments.ts';
import { createTicket } from './create-ticket.ts';
import { countUnreadTickets, getTicket, listTickets } from './list-tickets.ts';
import { closeAsUser, reopenAsUser, replyAsUser } from './transitions.ts';

const tags = ['tickets'];
const noStore = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');

/**
 * The user's side of customer service (issue #11): open a ticket, list mine, read one (marks staff
 * replies read), reply, close, reopen, the unread indicator, and the screenshot upload (multipart,
 * in its own scope like the project application's). Staff act through replyTicket / closeTicket.
 */
export async function ticketRoutes(api: FastifyInstance, ctx: AppContext) {
  const r = api.withTypeProvider<ZodTypeProvider>();
  r.post(TicketPaths.create, { schema: { tags, body: T.ticketCreateBody, response: { 200: T.ticketDetailResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    noStore(reply);
    return ok(req, await createTicket(ctx, userId, req.body), 'ticketCreated');
  });
  r.post(TicketPaths.list, { schema: { tags, body: T.ticketListBody, response: { 200: T.ticketListResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    noStore(reply);
    return ok(req, await listTickets(ctx, userId, req.body));
  });
  r.post(TicketPaths.detail, { schema: { tags, body: T.ticketIdBody, response: { 200: T.ticketDetailResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    noStore(reply);
    return ok(req, await getTicket(ctx, userId, req.body.id));
  });
  r.post(TicketPaths.reply, { schema: { tags, body: T.ticketReplyBody, response: { 200: T.ticketDetailResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    noStore(reply);
    return ok(req, await replyAsUser(ctx, userId, req.body.id, req.body.content, req.body.attachmentKeys), 'ticketReplied');
  });
  r.post(TicketPaths.close, { schema: { tags, body: T.ticketIdBody, response: { 200: T.ticketDetailResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    noStore(reply);
    return ok(req, await closeAsUser(ctx, userId, req.body.id), 'ticketClosedOk');
  });
  r.post(TicketPaths.reopen, { schema: { tags, body: T.ticketIdBody, response: { 200: T.ticketDetailResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    noStore(reply);
    return ok(req, await reopenAsUser(ctx, userId, req.body.id), 'ticketReopened');
  });
  r.post(TicketPaths.unread, { schema: { tags, response: { 200: T.ticketUnreadResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    noStore(reply);
    return ok(req, { unreadTickets: await countUnreadTickets(ctx, userId) });
  });

  await api.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: false });
    scope.withTypeProvider<ZodTypeProvider>().post(
      TicketPaths.upload,
      { schema: { tags, consumes: ['multipart/form-data'], response: { 200: S.uploadResponse } } },
      async (req: FastifyRequest, reply: FastifyReply) => {
        try {
          const userId = await requireUserId(ctx, req);
          const part = await filePart(ctx, req, TICKET_IMAGE_POLICY);
          const { id: _id, ...saved } = await saveUpload(ctx, userId, part, TICKET_IMAGE_POLICY, req.log);
          return ok(req, saved);
        } catch (err) {
          // Refused before the body was read: answer and close rather than read the rest.
          if (!req.raw.complete) reply.header('connection', 'close');
          throw err;
        }
      },
    );
  });
}
