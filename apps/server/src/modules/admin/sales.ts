import { sql } from 'kysely';
import { Status } from '@cfx/contract/envelope.ts';
import { SALES_MAX_DAYS } from '@cfx/contract/admin-rules.ts';
import type { SalesDay, SalesReport } from '@cfx/contract/admin.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { Account } from '../ledger/index.ts';
import { CHINA_OFFSET_MS, chinaDayNumber, DAY_MS, formatChinaDate, parseChinaDateTime } from '@cfx/protocol/china-time.ts';

/**
 * The sales charts (docs/admin.md "Sales"), aggregated by the database per China-time day:
 * - orders and GMV: orders paid that day (paid_at), except those refunded since — primary (drop
 *   orders) and resale (market and bid orders) apart;
 * - commission: what the ledger booked to `platform:commission` that day (settlements of resales
 *   and completed primary sales), so it is exactly the platform's income, not an estimate.
 * Days without activity are filled with zeros. At most SALES_MAX_DAYS days per request.
 */

function parseDay(s: string): number {
  const t = /^\d{4}-\d{2}-\d{2}$/.test(s) ? parseChinaDateTime(s) : null;
  if (t === null) throw new ApiError(Status.INVALID, 'adminBadRange');
  return chinaDayNumber(t);
}
const dayText = (n: number) => formatChinaDate(n * DAY_MS - CHINA_OFFSET_MS);

export async function salesReport(ctx: AppContext, from: string, to: string): Promise<SalesReport> {
  const d0 = parseDay(from);
  const d1 = parseDay(to);
  if (d1 < d0 || d1 - d0 + 1 > SALES_MAX_DAYS) throw new ApiError(Status.INVALID, 'adminBadRange');
  const start = d0 * DAY_MS - CHINA_OFFSET_MS;
  const end = (d1 + 1) * DAY_MS - CHINA_OFFSET_MS;
  const k = ctx.db.kysely;
  // Literals, not parameters: PostgreSQL matches the GROUP BY expression with the selected one only when they are the same text.
  const dayOf = (col: string) => sql<number>`(${sql.ref(col)} + ${sql.lit(CHINA_OFFSET_MS)}) / ${sql.lit(DAY_MS)}`;
  const orders = await k
    .selectFrom('orders')
    .select([
      dayOf('paid_at').as('d'),
      sql<number>`sum(case when kind = 'drop' then 1 else 0 end)`.as('po'),
      sql<number>`sum(case when kind = 'drop' then 0 else 1 end)`.as('ro'),
      sql<number>`sum(case when kind = 'drop' then price_fen else 0 end)`.as('pf'),
      sql<number>`sum(case when kind = 'drop' then 0 else price_fen end)`.as('rf'),
    ])
    .where('paid_at', '>=', start)
    .where('paid_at', '<', end)
    .where('status', '<>', 'refunded')
    .groupBy(dayOf('paid_at'))
    .execute();
  const commission = await k
    .selectFrom('ledger_entries')
    .select([dayOf('created_at').as('d'), sql<number>`sum(amount_fen)`.as('c')])
    .where('account', '=', Account.commission)
    .where('created_at', '>=', start)
    .where('created_at', '<', end)
    .groupBy(dayOf('created_at'))
    .execute();
  const byDay = new Map<number, SalesDay>();
  const get = (d: number) => {
    let x = byDay.get(d);
    if (!x) byDay.set(d, (x = { day: dayText(d), orders: 0, primaryOrders: 0, resaleOrders: 0, gmvFen: 0, primaryFen: 0, resaleFen: 0, commissionFen: 0 }));
    return x;
  };
  for (let d = d0; d <= d1; d++) get(d);
  for (const r of orders) {
    const x = get(Math.floor(Number(r.d)));
    x.primaryOrders = Number(r.po);
    x.resaleOrders = Number(r.ro);
    x.orders = x.primaryOrders + x.resaleOrders;
    x.primaryFen = Number(r.pf);
    x.resaleFen = Number(r.rf);
    x.gmvFen = x.primaryFen + x.resaleFen;
  }
  for (const r of commission) get(Math.floor(Number(r.d))).commissionFen = Number(r.c);
  const days = [...byDay.values()].filter((x) => x.day >= from && x.day <= to).sort((a, b) => (a.day < b.day ? -1 : 1));
  const totals = days.reduce(
    (t, x) => ({
      orders: t.orders + x.orders,
      primaryOrders: t.primaryOrders + x.primaryOrders,
      resaleOrders: t.resaleOrders + x.resaleOrders,
      gmvFen: t.gmvFen + x.gmvFen,
      primaryFen: t.primaryFen + x.primaryFen,
      resaleFen: t.resaleFen + x.resaleFen,
      commissionFen: t.commissionFen + x.commissionFen,
    }),
    { orders: 0, primaryOrders: 0, resaleOrders: 0, gmvFen: 0, primaryFen: 0, resaleFen: 0, commissionFen: 0 },
  );
  return { from, to, days, totals };
}
