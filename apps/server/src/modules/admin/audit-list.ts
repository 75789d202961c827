import type { AuditRow, Page } from '@cfx/contract/admin.ts';
import type { AppContext } from '../../context.ts';

/** The audit log for owners, newest first, filtered by staff member, action, target and time. */
export async function listAudit(
  ctx: AppContext,
  input: { staffId?: number | null; action: string; targetType: string; targetId: string; from?: number | null; to?: number | null; pageNum: number; pageSize: number },
): Promise<Page<AuditRow>> {
  const k = ctx.db.kysely;
  let base = k.selectFrom('audit_log as a').leftJoin('staff as s', 's.id', 'a.staff_id');
  if (input.staffId) base = base.where('a.staff_id', '=', input.staffId);
  // An action filter ending in `.` is a prefix (`user.` = every user action).
  if (input.action) base = input.action.endsWith('.') ? base.where('a.action', 'like', `${input.action.replace(/[\\%_]/g, '')}%`) : base.where('a.action', '=', input.action);
  if (input.targetType) base = base.where('a.target_type', '=', input.targetType);
  if (input.targetId) base = base.where('a.target_id', '=', input.targetId);
  if (input.from) base = base.where('a.created_at', '>=', input.from);
  if (input.to) base = base.where('a.created_at', '<', input.to);
  const total = Number((await base.select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await base
    .select(['a.id', 'a.staff_id', 's.username', 'a.action', 'a.target_type', 'a.target_id', 'a.summary', 'a.ip_masked', 'a.created_at'])
    .orderBy('a.id', 'desc')
    .limit(input.pageSize)
    .offset((input.pageNum - 1) * input.pageSize)
    .execute();
  return {
    list: rows.map((r) => {
      let summary: Record<string, unknown>;
      try {
        summary = JSON.parse(r.summary) as Record<string, unknown>;
      } catch {
        summary = {};
      }
      return {
        id: Number(r.id),
        staffId: r.staff_id === null ? null : Number(r.staff_id),
        actor: r.username ?? 'cli',
        action: r.action,
        targetType: r.target_type,
        targetId: r.target_id,
        summary,
        ip: r.ip_masked,
        at: Number(r.created_at),
      };
    }),
    total,
    pageNum: input.pageNum,
    pageSize: input.pageSize,
  };
}
