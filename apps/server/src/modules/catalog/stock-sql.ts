import { sql } from 'kysely';

/**
 * Units sold of a release: its primary-sale stock taken (reserved + paid, modules/drops) once it has one,
 * without the units refunded because they could never be minted (`drop_stock.voided`). Needs
 * `leftJoin('drop_stock', …)`.
 */
export const SOLD = sql<number>`coalesce(drop_stock.taken - drop_stock.voided, projects.sold)`;
/** The supply a release shows: without its voided units (never sold, never for sale again), so supply − sold is what can still be bought. */
export const SUPPLY = sql<number>`(projects.supply - coalesce(drop_stock.voided, 0))`;
