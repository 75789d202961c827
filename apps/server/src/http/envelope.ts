import type { FastifyReply, FastifyRequest } from 'fastify';
import { Status } from '@cfx/contract/envelope.ts';
import { DEFAULT_LANG, formatMessage, type Lang, type MessageKey } from '@cfx/contract/messages.ts';

/** A business failure: answered as the spec's envelope with the given status (HTTP 200 unless httpStatus is set). */
/**
 * A business answer (status, message key): thrown by handlers, answered in the envelope by the error
 * handler. It carries no stack trace: it is an expected outcome, never logged as a fault, and
 * capturing one cost ≈ 2 % of a drop day's CPU, where most answers are 已售罄 / 排队中.
 */
export class ApiError extends Error {
  constructor(
    readonly status: string,
    readonly key: MessageKey,
    readonly vars: Record<string, string | number> = {},
    readonly httpStatus = 200,
  ) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(key);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

export function langOf(req: FastifyRequest): Lang {
  const h = req.headers.lang;
  const fromHeader = Array.isArray(h) ? h[0] : h;
  if (fromHeader === 'en' || fromHeader === 'zh') return fromHeader;
  const cookie = req.headers.cookie;
  if (cookie) {
    const m = /(?:^|;\s*)lang=(zh|en)(?:;|$)/.exec(cookie);
    if (m) return m[1] as Lang;
  }
  return DEFAULT_LANG;
}

export function body<T>(status: string, data: T, message: string) {
  return { status, code: status, data, message, msg: message };
}

export function ok<T>(req: FastifyRequest, data: T, key: MessageKey = 'ok') {
  return body(Status.OK, data, formatMessage(key, langOf(req)));
}

export function sendError(req: FastifyRequest, reply: FastifyReply, err: ApiError) {
  const message = formatMessage(err.key, langOf(req), err.vars);
  return reply.code(err.httpStatus).send(body(err.status, null, message));
}

/**
 * Success on `official` and `background` paths: the client checks `code == 200` there
 * instead of the status, so `code` is 200 while `status` stays 000000. Failures keep code = status.
 */
export function okOfficial<T>(req: FastifyRequest, data: T, key: MessageKey = 'ok') {
  return { ...ok(req, data, key), code: 200 };
}
