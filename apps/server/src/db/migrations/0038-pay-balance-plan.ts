import { sql, type Kysely, type Migration } from 'kysely';
import type { Db } from '../database.ts';
import { PAY_BALANCE_BATCH_0036 } from './0036-pay-balance-function.ts';

/**
 * PostgreSQL only: pay_balance_batch (0036) finds its orders by their order numbers alone.
 *
 * 0036 moved the debited orders to paid with `update orders … where order_no in (select … from
 * jsonb_to_recordset(members) …) and status in ('created', 'paying')`. While a drop fills `orders` with
 * `created` rows faster than autovacuum analyses the table, the planner believes few orders are
 * `created`, reads them all through `orders_status_expiry` and runs the members' JSON again for each:
 * in bench/drop.ts the function averaged 5.6 ms and ≈ 970 buffer reads per call of 2.8 payments
 * (pg_stat_statements). Its first statement, which locks the members' orders, had the same weakness
 * on a small table: the JSON's default estimate of 100 rows turned the join into a scan of `orders`.
 *
 * Here both statements name the orders as an array of order numbers (`order_no = any(array(…))`) and
 * nothing else, so the unique index on order_no is their way in. The status condition the update
 * dropped is settled before it: the first statement locked these very rows (FOR UPDATE) and the
 * function read their status then; the update's row count is still checked.
 */
const CHANGES: [before: string, after: string][] = [
  [
    `  for m in select o.order_no, o.status from orders o
           where o.order_no in (select x.order_no from jsonb_to_recordset(p_members) as x(order_no text))
`,
    `  for m in select o.order_no, o.status from orders o
           where o.order_no = any(array(select x.order_no from jsonb_to_recordset(p_members) as x(order_no text)))
`,
  ],
  [
    `    where order_no in (select x.order_no from jsonb_to_recordset(p_members) as x(i int, order_no text) where x.i = any(v_paid))
      and status in ('created', 'paying');
`,
    `    where order_no = any(array(select x.order_no from jsonb_to_recordset(p_members) as x(i int, order_no text) where x.i = any(v_paid)));
`,
  ],
];

/** 0036's function with each change applied (`up`), or as 0036 created it (`down`). */
function payBalanceBatch0038(direction: 'up' | 'down'): string {
  let text = PAY_BALANCE_BATCH_0036.replace('create function', 'create or replace function');
  if (direction === 'down') return text;
  for (const [before, after] of CHANGES) {
    if (text.split(before).length !== 2) throw new Error('0038: a statement of pay_balance_batch is not where 0036 put it');
    text = text.replace(before, after);
  }
  return text;
}

export function migration(db: Db): Migration {
  return {
    async up(k: Kysely<any>) {
      if (db.dialect !== 'postgres') return;
      await sql.raw(payBalanceBatch0038('up')).execute(k);
    },
    async down(k: Kysely<any>) {
      if (db.dialect !== 'postgres') return;
      await sql.raw(payBalanceBatch0038('down')).execute(k);
    },
  };
}
