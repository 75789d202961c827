/**
 * The one message interpolator of server and web: fills every occurrence of every placeholder of a
 * text in one pass. The server's messages (messages.ts, user-messages.ts) write `{name}`, the web
 * app's catalogues `{{name}}` (`braces: 2`). A value is inserted as is: never searched for
 * placeholders again, and `$&` / `$1` stay literal (String.prototype.replace would expand them).
 * Pure, no dependencies; used in the browser too.
 */

export type InterpolationVars = Readonly<Record<string, string | number | boolean | null | undefined>>;

export interface InterpolateOptions {
  /** `1`: `{name}` (default); `2`: `{{name}}` (spaces inside allowed: `{{ name }}`). */
  braces?: 1 | 2;
  /**
   * A placeholder `vars` has no key for: `keep` it as written (default: a text with a forgotten value
   * shows which one), or make it `empty` (a stored notice whose parameters changed since).
   * A key that is present with null or undefined always gives ''.
   */
  missing?: 'keep' | 'empty';
}

const SINGLE = /\{\s*([A-Za-z_][\w.]*)\s*\}/g;
const DOUBLE = /\{\{(.+?)\}\}/g;

export function interpolate(text: string, vars?: InterpolationVars, opts: InterpolateOptions = {}): string {
  const keepMissing = (opts.missing ?? 'keep') === 'keep';
  if (!vars && keepMissing) return text;
  const v = vars ?? {};
  return text.replace(opts.braces === 2 ? DOUBLE : SINGLE, (whole: string, name: string) => {
    const k = name.trim();
    if (!Object.prototype.hasOwnProperty.call(v, k)) return keepMissing ? whole : '';
    const value = v[k];
    return value === null || value === undefined ? '' : String(value);
  });
}
