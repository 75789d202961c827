import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { API_BASE, Status } from '@cfx/contract/envelope.ts';
import { ADMIN_BASE } from '@cfx/contract/admin-rules.ts';
import { formatMessage } from '@cfx/contract/messages.ts';
import { ApiError, body, langOf, sendError } from './envelope.ts';

/**
 * Every failure under the API answers the spec's envelope: business errors (ApiError) with
 * their status, malformed or invalid input with 1001 and a 4xx, unknown API paths 404.
 * Only a real fault of ours is a 5xx (status 9999), and it is logged.
 */
export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ApiError) return sendError(req, reply, err);
    const lang = langOf(req);
    if (hasZodFastifySchemaValidationErrors(err) || err.validation) {
      return reply.code(400).send(body(Status.INVALID, null, formatMessage('badParams', lang)));
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err: err.message }, 'response failed its schema');
      return reply.code(500).send(body(Status.SERVER_ERROR, null, formatMessage('serverError', lang)));
    }
    const code = err.statusCode ?? 500;
    if (code >= 400 && code < 500) {
      // Fastify's own 4xx: bad JSON, empty body, wrong content type, body too large, ...
      return reply.code(code).send(body(Status.INVALID, null, formatMessage('badParams', lang)));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send(body(Status.SERVER_ERROR, null, formatMessage('serverError', lang)));
  });
}

/** Under the gateway or the operations console's API: unknown paths answer the envelope, never a page. */
export function apiNotFound(req: { url: string }) {
  return req.url.startsWith(API_BASE) || req.url.startsWith(`${ADMIN_BASE}/`);
}

export function notFoundBody(lang: 'zh' | 'en') {
  return body(Status.NOT_FOUND, null, formatMessage('notFound', lang));
}
