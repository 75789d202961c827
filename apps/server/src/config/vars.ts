import { z } from 'zod';

/**
 * The coercers of the environment schema (config/env.ts). One meaning everywhere: an unset or empty
 * variable takes its default; any other value must have the stated form and range, else the server
 * refuses to start with a ConfigError naming the variable, the expected form and the value given.
 * Nothing is silently clamped or replaced by the default.
 */

/** A setting that must not start the server; main.ts prints the message and exits 1. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const unset = (v: string | undefined): v is undefined | '' => v === undefined || v === '';

/** What a schema entry produces from the raw text; `undefined` when the variable is unset. */
type Var<T> = z.ZodType<T, string | undefined>;

function variable<T>(expected: string, parse: (v: string) => T | undefined, fallback: () => T): Var<T> {
  return z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (unset(v)) return fallback();
      const out = parse(v);
      if (out === undefined) {
        ctx.addIssue({ code: 'custom', message: `must be ${expected} (got "${v}")` });
        return z.NEVER;
      }
      return out;
    }) as unknown as Var<T>;
}

function range(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return ` from ${min} to ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  if (max !== undefined) return ` of at most ${max}`;
  return '';
}

interface Bounds {
  min?: number;
  max?: number;
}

/** A whole number (decimal digits, optional sign) within [min, max]. */
export function intVar(o: Bounds & { default: number }): Var<number>;
export function intVar(o: Bounds & { default?: undefined }): Var<number | undefined>;
export function intVar(o: Bounds & { default?: number }): Var<number | undefined> {
  return variable(
    `an integer${range(o.min, o.max)}`,
    (v) => {
      if (!/^[+-]?\d+$/.test(v.trim())) return undefined;
      const n = Number(v);
      if (!Number.isSafeInteger(n) || (o.min !== undefined && n < o.min) || (o.max !== undefined && n > o.max)) return undefined;
      return n;
    },
    () => o.default,
  );
}

/** A decimal number (e.g. `0.5`) within [min, max]; `above` instead of `min` excludes the bound itself. */
export function numVar(o: Bounds & { above?: number; default: number }): Var<number> {
  const form = o.above !== undefined ? `a number above ${o.above}${o.max !== undefined ? ` and at most ${o.max}` : ''}` : `a number${range(o.min, o.max)}`;
  return variable(
    form,
    (v) => {
      if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(v.trim())) return undefined;
      const n = Number(v);
      if ((o.min !== undefined && n < o.min) || (o.above !== undefined && n <= o.above) || (o.max !== undefined && n > o.max)) return undefined;
      return n;
    },
    () => o.default,
  );
}

/** `1` or `0`; unset gives `default` (undefined: the loader decides from other settings). */
export function flagVar(o: { default: boolean }): Var<boolean>;
export function flagVar(o?: { default?: undefined }): Var<boolean | undefined>;
export function flagVar(o: { default?: boolean } = {}): Var<boolean | undefined> {
  return variable('1 or 0', (v) => (v === '1' ? true : v === '0' ? false : undefined), () => o.default);
}

/** One of the listed words. */
export function oneOfVar<const T extends string>(allowed: readonly T[], o: { default: T }): Var<T>;
export function oneOfVar<const T extends string>(allowed: readonly T[], o?: { default?: undefined }): Var<T | undefined>;
export function oneOfVar<const T extends string>(allowed: readonly T[], o: { default?: T } = {}): Var<T | undefined> {
  return variable(`one of ${allowed.join(', ')}`, (v) => ((allowed as readonly string[]).includes(v) ? (v as T) : undefined), () => o.default);
}

/** Free text (a key, a name, a path); unset or empty gives `default`. */
export function strVar(o: { default: string }): Var<string>;
export function strVar(o?: { default?: undefined }): Var<string | undefined>;
export function strVar(o: { default?: string } = {}): Var<string | undefined> {
  return variable('text', (v) => v, () => o.default);
}

/** A URL whose text matches `pattern` (described by `expected`), trailing slashes kept as given. */
export function urlVar(o: { pattern: RegExp; expected: string; default: string }): Var<string>;
export function urlVar(o: { pattern: RegExp; expected: string; default?: undefined }): Var<string | undefined>;
export function urlVar(o: { pattern: RegExp; expected: string; default?: string }): Var<string | undefined> {
  return variable(o.expected, (v) => (o.pattern.test(v) ? v : undefined), () => o.default);
}

/** A custom form: `parse` returns undefined for a value that is not of it. */
export function customVar<T>(expected: string, parse: (v: string) => T | undefined, fallback: T): Var<T> {
  return variable(expected, parse, () => fallback);
}

/** Parses `raw` with `schema`; every bad variable is named in one ConfigError. */
export function parseVars<S extends z.ZodObject>(schema: S, raw: NodeJS.ProcessEnv | Record<string, string | undefined>): z.output<S> {
  const picked: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) picked[key] = raw[key];
  const r = schema.safeParse(picked);
  if (r.success) return r.data;
  throw new ConfigError(r.error.issues.map((i) => `${String(i.path[0] ?? '?')} ${i.message}`).join('; '));
}

/** A variable another setting requires: unset or empty is a ConfigError saying which setting needs it. */
export function need<T>(value: T | undefined, name: string, by: string): T {
  if (value === undefined || value === '') throw new ConfigError(`${name} is required ${by}`);
  return value;
}
