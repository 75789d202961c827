import type { AppContext } from '../../context.ts';

/** What the payment provider shows for a drop order: `<release name> ×<quantity>`. */
export async function dropSubject(ctx: AppContext, o: { order_no: string; project_id: number | null; quantity: number | null }): Promise<string> {
  if (o.project_id === null) return o.order_no;
  const p = await ctx.db.kysely.selectFrom('projects').select('name').where('id', '=', Number(o.project_id)).executeTakeFirst();
  return p ? `${p.name} ×${Number(o.quantity ?? 1)}` : o.order_no;
}
