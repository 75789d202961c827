import type { FastifyRequest } from 'fastify';
import { Status, TOKEN_HEADER } from '@cfx/contract/envelope.ts';
import { ApiError } from '../../http/envelope.ts';
import { findSessionUser } from './sessions.ts';
import type { AppContext } from '../../context.ts';

export function tokenOf(req: FastifyRequest): string | undefined {
  const h = req.headers[TOKEN_HEADER];
  const v = Array.isArray(h) ? h[0] : h;
  return v && v.length <= 200 ? v : undefined;
}

/** The logged-in user's id, or a 1100 failure for a missing, invalid, expired or revoked token. */
export async function requireUserId(ctx: AppContext, req: FastifyRequest): Promise<number> {
  const token = tokenOf(req);
  if (!token) throw new ApiError(Status.SESSION_LOST, 'sessionLost');
  const userId = await findSessionUser(ctx, token);
  if (userId === undefined) throw new ApiError(Status.SESSION_LOST, 'sessionLost');
  return userId;
}
