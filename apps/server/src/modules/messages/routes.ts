import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Status } from '@cfx/contract/envelope.ts';
import { formatMessage } from '@cfx/contract/messages.ts';
import { MessagePaths } from '@cfx/contract/routes.ts';
import * as M from '@cfx/contract/user-messages.ts';
import type { AppContext } from '../../context.ts';
import { requireUserId, tokenOf } from '../accounts/index.ts';
import { body, langOf, ok } from '../../http/envelope.ts';
import { listMessages, markRead, unreadByKind } from './list-messages.ts';
import { reminderStatus, setReminder } from './reminders.ts';
import { getMessageSettings, saveMessageSettings } from './settings.ts';
import type { MessageHub, StreamConn } from './stream-hub.ts';
import { consumeStreamTicket, issueStreamTicket } from './stream-tickets.ts';

/**
 * The message center (issue #11, docs/api.md "Messages"): msglist, read, unread, getmsgsetting,
 * submitmsg (saves the settings), the SSE stream with its single-use ticket, and "remind me".
 * `hub` holds this process's streams (app.ts ends them before the server closes).
 */
export function messageRoutes(app: FastifyInstance, ctx: AppContext, hub: MessageHub) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['messages'];

  r.post(MessagePaths.msglist, { schema: { tags, body: M.msglistBody, response: { 200: M.msglistResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    reply.header('cache-control', 'private, no-store');
    return ok(req, await listMessages(ctx, userId, req.body, langOf(req)));
  });
  r.post(MessagePaths.unread, { schema: { tags, response: { 200: M.unreadResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    reply.header('cache-control', 'private, no-store');
    return ok(req, await unreadByKind(ctx.db.kysely, userId));
  });
  r.post(MessagePaths.read, { schema: { tags, body: M.markReadBody, response: { 200: M.markReadResponse } } }, async (req) => {
    const userId = await requireUserId(ctx, req);
    return ok(req, await markRead(ctx, userId, req.body), 'messagesRead');
  });
  r.post(MessagePaths.getmsgsetting, { schema: { tags, response: { 200: M.messageSettingsResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    reply.header('cache-control', 'private, no-store');
    return ok(req, await getMessageSettings(ctx, userId));
  });
  r.post(MessagePaths.submitmsg, { schema: { tags, body: M.submitmsgBody, response: { 200: M.messageSettingsResponse } } }, async (req) => {
    const userId = await requireUserId(ctx, req);
    return ok(req, await saveMessageSettings(ctx, userId, req.body.items), 'messageSettingsSaved');
  });

  r.post(MessagePaths.remind, { schema: { tags, body: M.remindBody, response: { 200: M.remindResponse } } }, async (req) => {
    const userId = await requireUserId(ctx, req);
    const on = req.body.on ?? true;
    return ok(req, await setReminder(ctx, userId, req.body.projectId, on), on ? 'remindOn' : 'remindOff');
  });
  r.post(MessagePaths.remindStatus, { schema: { tags, body: M.remindStatusBody, response: { 200: M.remindResponse } } }, async (req) => {
    const userId = await requireUserId(ctx, req);
    return ok(req, await reminderStatus(ctx, userId, req.body.projectId));
  });

  r.post(MessagePaths.streamTicket, { schema: { tags, response: { 200: M.streamTicketResponse } } }, async (req, reply) => {
    const userId = await requireUserId(ctx, req);
    reply.header('cache-control', 'private, no-store');
    return ok(req, await issueStreamTicket(ctx, userId, tokenOf(req)!));
  });

  /**
   * GET ?ticket=&lang=&after= → text/event-stream. Written on the raw response (hijacked): no
   * compression (a compressor would buffer the events), helmet's headers are already on it.
   */
  r.get(
    MessagePaths.stream,
    {
      config: { compress: false },
      schema: { tags, querystring: M.streamQuery.extend({ after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional() }) },
    },
    async (req, reply) => {
      const lang = req.query.lang ?? langOf(req);
      const t = req.query.ticket ? await consumeStreamTicket(ctx, req.query.ticket) : undefined;
      if (!t) return reply.code(401).header('cache-control', 'no-store').send(body(Status.INVALID, null, formatMessage('streamTicketInvalid', lang)));
      if (hub.count(t.userId) >= ctx.config.messages.streamsPerUser) {
        return reply.code(429).header('cache-control', 'no-store').header('retry-after', '30').send(body(Status.RATE_LIMITED, null, formatMessage('streamTooMany', lang)));
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-store, no-transform',
        connection: 'keep-alive',
        // nginx and similar proxies: do not buffer this response.
        'x-accel-buffering': 'no',
      });
      res.socket?.setNoDelay(true);
      res.socket?.setTimeout(0);
      // `retry`: the browser's own reconnect delay (the web client reconnects itself with a new ticket).
      res.write(`retry: 5000\n: connected\n\n`);
      const conn: StreamConn = { userId: t.userId, sid: t.sid, lang, res, lastId: 0, lastCount: null, refreshing: false, dirty: false, closed: false };
      try {
        await hub.open(conn, req.query.after);
      } catch (err) {
        app.log.warn({ err: String(err) }, 'message stream failed to open');
        hub.close(conn);
      }
    },
  );
}
