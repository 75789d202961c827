import { createContext, useContext } from 'react';
import { useRouteLoaderData } from 'react-router';
import { DEFAULT_LANG, LANGS, type Lang } from '@cfx/contract/messages.ts';
import { LANG_COOKIE, LANG_COOKIE_MAX_AGE } from '../config.ts';
import { fallbackMessages } from './fallback.ts';
import type { Namespace } from './namespaces.ts';
import { isPluralMessage, selectPlural, type IsLeaf } from './plural.ts';
import type { Messages } from './zh.ts';

export type { Lang };
export { DEFAULT_LANG, LANGS };

export { plural, type PluralMessage } from './plural.ts';

/** Every catalog key: the dotted path of a text (or a count-aware message) in zh.ts (`'catalog.status.on_sale'`). */
export type KeyPaths<T> = { [K in keyof T & string]: IsLeaf<T[K]> extends true ? K : `${K}.${KeyPaths<T[K]>}` }[keyof T & string];
export type TKey = KeyPaths<Messages>;
/** Values for the `{{name}}` placeholders of a text. */
export type TVars = Record<string, unknown>;
export type TFunction = (key: TKey, vars?: TVars) => string;

/** One language's translate function (the app's small replacement for i18next). */
export interface I18n {
  lang: Lang;
  t: TFunction;
}

const PLACEHOLDER = /\{\{(.+?)\}\}/g;

/**
 * Fills every occurrence of every `{{name}}` placeholder of `text` from `vars` in one pass (a value
 * is inserted as is: it is never searched for placeholders again, and `$&` stays literal). A
 * placeholder without a value stays as written; one whose value is null (or present as undefined)
 * becomes empty.
 */
export function interpolate(text: string, vars?: TVars): string {
  if (!vars) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const k = name.trim();
    const value = vars[k];
    return value === undefined ? (k in vars ? '' : whole) : value === null ? '' : String(value);
  });
}

/**
 * Looks `key` up in `catalog` and fills its placeholders (see `interpolate`), the way the app used
 * i18next (no escaping — React escapes; no nesting). A count-aware message (`{ one, other }`, see
 * plural.ts) gives the form of `vars.count` in `lang`. A missing key returns the key.
 */
export function translate(catalog: unknown, key: string, vars?: TVars, lang: Lang = DEFAULT_LANG): string {
  let text = catalog;
  for (const part of key.split('.')) text = (text as Record<string, unknown> | undefined)?.[part];
  if (isPluralMessage(text)) text = selectPlural(text, vars?.count, lang);
  if (typeof text !== 'string') return key;
  return interpolate(text, vars);
}

function makeI18n(lang: Lang, catalog: unknown): I18n {
  return { lang, t: (key, vars) => translate(catalog, key, vars, lang) };
}

let current: I18n | undefined;

/**
 * The translate function for one language. `messages` is the part of that language's catalog the
 * root loader sent (see catalogs.server.ts and namespaces.ts); without it only the error-page
 * fallback texts exist.
 */
export function createI18n(lang: Lang, messages?: Partial<Messages>): I18n {
  const instance = makeI18n(lang, messages ?? fallbackMessages);
  if (typeof document !== 'undefined') current = instance;
  return instance;
}

/** In the browser: the catalog sections received so far in this language, and their namespaces. */
const received: { lang?: Lang; messages: Partial<Messages>; namespaces: Set<Namespace> } = { messages: {}, namespaces: new Set() };

/**
 * The catalog for rendering: on the server, the namespaces of this request; in the browser, these
 * added to every namespace received before (a root revalidation sends only the next page's).
 */
export function mergeCatalog(lang: Lang, namespaces: readonly Namespace[], messages: Partial<Messages>): Partial<Messages> {
  if (typeof document === 'undefined') return messages;
  if (received.lang !== lang) Object.assign(received, { lang, messages: {}, namespaces: new Set() });
  if (namespaces.every((ns) => received.namespaces.has(ns))) return received.messages;
  received.messages = { ...received.messages, ...messages };
  for (const ns of namespaces) received.namespaces.add(ns);
  return received.messages;
}

/** Whether the browser already holds every one of `namespaces` (root.tsx revalidates the root loader when not). */
export function hasNamespaces(namespaces: readonly Namespace[]): boolean {
  return namespaces.every((ns) => received.namespaces.has(ns));
}

/** Provided by the root layout (`<I18nContext value={createI18n(…)}>`). */
export const I18nContext = createContext<I18n | null>(null);
let outside: I18n | undefined;

/** `{ t, lang }` of the page; outside the provider, the fallback texts in the default language. */
export function useTranslation(): I18n {
  return useContext(I18nContext) ?? (outside ??= makeI18n(DEFAULT_LANG, fallbackMessages));
}

/** The browser's current translate function, for code outside React (the api client). */
export function browserT(): TFunction {
  if (!current) current = createI18n(langFromDocument());
  return current.t;
}

/** Root loader data: the page language and the namespaces of its catalog the page needs. */
export interface RootData {
  lang: Lang;
  /** `common` and the route's namespaces (namespaces.ts) … */
  namespaces: Namespace[];
  /** … and their sections of the catalog. */
  messages: Partial<Messages>;
  /** The server runs with DEV_MODE=1 (sandbox providers, demo data): every page shows a banner. */
  devMode?: boolean;
  /** The CSP nonce of this response (inline scripts carry it). */
  nonce?: string;
}

/**
 * Reads the `lang` cookie from a Cookie header. Missing → default; present but unsupported →
 * 'invalid' (the root loader answers 404 for it).
 */
export function langFromCookieHeader(header: string | null | undefined): Lang | 'invalid' {
  if (!header) return DEFAULT_LANG;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== LANG_COOKIE) continue;
    const value = decodeURIComponent(part.slice(eq + 1).trim());
    return (LANGS as readonly string[]).includes(value) ? (value as Lang) : 'invalid';
  }
  return DEFAULT_LANG;
}

export function langFromDocument(): Lang {
  if (typeof document === 'undefined') return DEFAULT_LANG;
  const lang = langFromCookieHeader(document.cookie);
  return lang === 'invalid' ? DEFAULT_LANG : lang;
}

/** Stores the language for a year (path /) so the server renders the next request in it. */
export function setLangCookie(lang: Lang) {
  document.cookie = `${LANG_COOKIE}=${lang}; path=/; max-age=${LANG_COOKIE_MAX_AGE}; samesite=lax`;
}

/** The page language: the root loader's value (SSR and client agree on it). */
export function useLang(): Lang {
  const data = useRouteLoaderData('root') as Partial<RootData> | undefined;
  return data?.lang ?? DEFAULT_LANG;
}
