/**
 * Count-aware messages. A catalog value may be `{ one: '{{count}} item', other: '{{count}} items' }`:
 * `t(key, { count })` picks the form `Intl.PluralRules(lang).select(count)` names, or `other`
 * when that form is absent (Chinese has only `other`). Wrap such values in `plural(…)` in zh.ts so
 * the `Messages` type lets en.ts add the forms English needs.
 */
export const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
export type PluralCategory = (typeof PLURAL_CATEGORIES)[number];
export type PluralMessage = { other: string } & Partial<Record<Exclude<PluralCategory, 'other'>, string>>;

/** Marks a catalog value as count-aware (identity at run time; widens the type for the other languages). */
export function plural(forms: PluralMessage): PluralMessage {
  return forms;
}

/** An object whose keys are all plural categories and that has `other`. */
export function isPluralMessage(value: unknown): value is PluralMessage {
  if (typeof value !== 'object' || value === null) return false;
  const entries = Object.entries(value);
  return (
    typeof (value as { other?: unknown }).other === 'string' &&
    entries.every(([k, v]) => (PLURAL_CATEGORIES as readonly string[]).includes(k) && typeof v === 'string')
  );
}

const rules = new Map<string, Intl.PluralRules>();

/** The form of `message` for `count` in `lang` (`other` when the count is not a number). */
export function selectPlural(message: PluralMessage, count: unknown, lang: string): string {
  const n = typeof count === 'number' ? count : typeof count === 'string' && count.trim() !== '' ? Number(count) : NaN;
  if (!Number.isFinite(n)) return message.other;
  let r = rules.get(lang);
  if (!r) rules.set(lang, (r = new Intl.PluralRules(lang === 'zh' ? 'zh-CN' : lang)));
  return message[r.select(n)] ?? message.other;
}

/** Leaves of a catalog type: texts and count-aware messages (an object with other keys is a section). */
export type IsLeaf<V> = V extends string
  ? true
  : V extends { other: string }
    ? Exclude<keyof V, PluralCategory> extends never
      ? true
      : false
    : false;
