import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { tokenOf } from './require-user.ts';
import { findSessionUser } from './sessions.ts';

/**
 * The caller's user id on a public call (creator page, moments), or undefined for a visitor. A
 * missing, expired or revoked token makes the caller a visitor rather than a 1100 failure: a public
 * page must not log anyone out; the personal calls still answer 1100.
 */
export async function optionalUserId(ctx: AppContext, req: FastifyRequest): Promise<number | undefined> {
  const token = tokenOf(req);
  return token ? findSessionUser(ctx, token) : undefined;
}
