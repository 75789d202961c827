import { z } from 'zod';

/**
 * Paging and id parameters shared by the catalog, content and search calls. Numbers may arrive as
 * JSON numbers or as digit strings (GET query strings are always strings); `null` or a missing
 * value takes the default. `pageSize` is capped at PAGE_SIZE_MAX (a larger value is not an error).
 */
export const PAGE_SIZE_MAX = 50;
export const PAGE_SIZE_DEFAULT = 10;
/** Pages beyond this are refused (1001): deep OFFSET scans are not a product feature. */
export const PAGE_NUM_MAX = 10_000;

/** A number or a string of digits, as a number. */
export const intLike = z.union([z.number(), z.string().trim().regex(/^-?\d{1,15}$/).transform(Number)]);

export const pageNum = intLike.pipe(z.number().int().min(1).max(PAGE_NUM_MAX)).nullish().transform((v) => v ?? 1);
export const pageSize = intLike
  .pipe(z.number().int().min(1))
  .transform((n) => Math.min(n, PAGE_SIZE_MAX))
  .nullish()
  .transform((v) => v ?? PAGE_SIZE_DEFAULT);
export const paging = { pageNum, pageSize };

/** A positive integer id (numbers or digit strings). Malformed ids are 1001; unknown ones 1404. */
export const idParam = intLike.pipe(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER));
export const optionalId = idParam.nullish().transform((v) => v ?? undefined);

/** A page of a list: the items, the total number of matches and the page asked for. */
export function page<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), total: z.number().int(), pageNum: z.number().int(), pageSize: z.number().int() });
}
export type Page<T> = { list: T[]; total: number; pageNum: number; pageSize: number };

/** A string parameter without NUL characters (PostgreSQL text cannot hold them; they are never meaningful input). */
export const safeText = (max: number) => z.string().max(max).refine((s) => !s.includes('\u0000'), 'NUL character');
