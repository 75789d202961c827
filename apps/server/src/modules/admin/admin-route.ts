import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { Status } from '@cfx/contract/envelope.ts';
import { can, STAFF_TOKEN_HEADER, type AdminAccess } from '@cfx/contract/admin-rules.ts';
import type { MessageKey } from '@cfx/contract/messages.ts';
import type { AppContext } from '../../context.ts';
import type { StaffSessionStage } from '../../db/schema.ts';
import { inTx, type Q } from '../../db/tx.ts';
import { ApiError, ok } from '../../http/envelope.ts';
import { clientMeta, maskIp, type ClientMeta } from '../accounts/index.ts';
import { withTxHook, writeAudit, type AuditActor, type AuditEntry, type AuditWrite } from './audit.ts';
import { findStaff, type StaffPrincipal } from './staff-auth.ts';

/**
 * How every console route is declared (docs/admin.md "Extending"): its access — a permission of
 * the map in @cfx/contract/admin-rules.ts, or one of the sign-in accesses — and whether it
 * mutates (`audit: true`: it must write an audit row in the action's transaction). The scope
 * refuses at start-up any route registered without an access, and the table of declared routes is
 * kept per app for the tests that call every one of them.
 */
export interface AdminRouteInfo {
  method: 'GET' | 'POST';
  /** Path under ADMIN_BASE. */
  path: string;
  access: AdminAccess;
  audit: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on console routes by adminRoute (checked by guardAdminScope). */
    admin?: AdminRouteInfo;
  }
}

const tables = new WeakMap<object, AdminRouteInfo[]>();
/** The staff member of a request, found in preValidation. */
const principals = new WeakMap<FastifyRequest, StaffPrincipal | null>();
/** The console routes of an app (by its context), in registration order. */
export function adminRouteTable(ctx: AppContext): AdminRouteInfo[] {
  return tables.get(ctx) ?? [];
}

/** What a route handler gets. */
export interface AdminCall<B, Qs> {
  req: FastifyRequest;
  reply: FastifyReply;
  body: B;
  query: Qs;
  /** The signed-in staff member (for `login` access: not available — reading it throws). */
  staff: StaffPrincipal;
  meta: ClientMeta;
  actor: AuditActor;
  /** Writes an audit row in `trx` (a transaction this request runs); `staffId` for the sign-in steps. */
  audit: AuditWrite;
  /** Runs `fn` in one transaction with the audit row `entry(result)` written in it. */
  tx<T>(fn: (trx: Q, now: number) => Promise<T>, entry: (result: T) => AuditEntry): Promise<T>;
  /**
   * Runs a domain operation that opens its own transaction, with the audit row written inside that
   * transaction (audit.ts withTxHook). `entry(inner, trx)` gets the operation's transaction result
   * and may throw to refuse, which rolls everything back.
   */
  call<T>(fn: (ctx: AppContext) => Promise<T>, entry: (inner: unknown, trx: Q) => Promise<AuditEntry> | AuditEntry): Promise<T>;
}

/** Stages of the staff session each sign-in access accepts (a permission or `self` needs a full one). */
const STAGES: Record<'code' | 'new-password' | 'full', readonly StaffSessionStage[]> = {
  code: ['totp', 'enrol'],
  'new-password': ['password', 'full'],
  full: ['full'],
};

export function tokenOfStaff(req: FastifyRequest): string | undefined {
  const h = req.headers[STAFF_TOKEN_HEADER];
  const v = Array.isArray(h) ? h[0] : h;
  return v || undefined;
}

async function principalFor(ctx: AppContext, req: FastifyRequest, access: AdminAccess): Promise<StaffPrincipal | null> {
  if (access === 'login') return null;
  const token = tokenOfStaff(req);
  if (access === 'code' || access === 'new-password') return findStaff(ctx, token, STAGES[access]);
  const staff = await findStaff(ctx, token, STAGES.full);
  if (access !== 'self' && !can(staff.roles, access)) throw new ApiError(Status.STAFF_FORBIDDEN, 'staffForbidden');
  return staff;
}

export function adminRoute<B extends z.ZodType = z.ZodUnknown, Qs extends z.ZodType = z.ZodUnknown>(
  scope: FastifyInstance,
  ctx: AppContext,
  def: {
    method?: 'GET' | 'POST';
    path: string;
    access: AdminAccess;
    audit: boolean;
    body?: B;
    querystring?: Qs;
    /** The success message (default `ok`). */
    okKey?: MessageKey;
    /** A larger body than the server's default (e.g. a whitelist CSV sent as text). */
    bodyLimit?: number;
    handler: (c: AdminCall<z.infer<B>, z.infer<Qs>>) => Promise<unknown>;
  },
) {
  const method = def.method ?? 'POST';
  const info: AdminRouteInfo = { method, path: def.path, access: def.access, audit: def.audit };
  const list = tables.get(ctx) ?? [];
  tables.set(ctx, list.filter((r) => !(r.method === method && r.path === def.path)).concat(info));
  const schema = { hide: true, ...(def.body ? { body: def.body } : {}), ...(def.querystring ? { querystring: def.querystring } : {}) };
  scope.withTypeProvider<ZodTypeProvider>().route({
    method,
    url: def.path,
    schema,
    ...(def.bodyLimit ? { bodyLimit: def.bodyLimit } : {}),
    config: { admin: info },
    // Who is calling is settled before the body is validated: without access, no route says more than 1070 / 1071.
    preValidation: async (req: FastifyRequest) => {
      principals.set(req, await principalFor(ctx, req, def.access));
    },
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const staff = principals.get(req) ?? null;
      const meta = clientMeta(req);
      const actor: AuditActor = { staffId: staff?.id ?? null, ipMasked: maskIp(meta.ip) };
      let audited = 0;
      const c: AdminCall<z.infer<B>, z.infer<Qs>> = {
        req,
        reply,
        body: req.body as z.infer<B>,
        query: req.query as z.infer<Qs>,
        get staff(): StaffPrincipal {
          if (!staff) throw new Error(`${def.path}: no staff member on a login route`);
          return staff;
        },
        meta,
        actor,
        audit: async (trx, entry, staffId) => {
          await writeAudit(trx, staffId === undefined ? actor : { ...actor, staffId }, entry, ctx.now());
          audited++;
        },
        tx: async (fn, entry) => {
          const now = ctx.now();
          const r = await inTx(ctx, async (trx) => {
            const out = await fn(trx, now);
            await writeAudit(trx, actor, entry(out), now);
            return out;
          });
          audited++;
          return r;
        },
        call: async (fn, entry) => {
          const r = await withTxHook(ctx, async (trx, inner) => writeAudit(trx, actor, await entry(inner, trx), ctx.now()), fn);
          audited++;
          return r;
        },
      };
      const data = await def.handler(c);
      if (def.audit && audited === 0) {
        // A mutating route that wrote no audit row is a bug: loud in development and tests, logged in production.
        req.log.error({ path: def.path }, 'admin route wrote no audit row');
        if (ctx.config.devMode) throw new Error(`admin route ${def.path} wrote no audit row`);
      }
      reply.header('cache-control', 'no-store');
      if (reply.sent || data === reply) return reply;
      return ok(req, data ?? null, def.okKey ?? 'ok');
    },
  });
}

/**
 * The console's scope checks: every route registered in it must have been declared through
 * adminRoute (an access and an audit flag) — a plain `scope.post(...)` fails at start-up.
 */
export function guardAdminScope(scope: FastifyInstance) {
  scope.addHook('onRoute', (opts) => {
    const admin = opts.config?.admin;
    if (!admin?.access) throw new Error(`admin route ${opts.method} ${opts.url} declares no access (use adminRoute)`);
  });
}
