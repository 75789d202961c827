import i18next, { type i18n as I18n, type TFunction } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { useRouteLoaderData } from 'react-router';
import { DEFAULT_LANG, LANGS, type Lang } from '@cfx/contract/messages.ts';
import { LANG_COOKIE, LANG_COOKIE_MAX_AGE } from '../config.ts';
import { fallbackMessages } from './fallback.ts';
import type { Messages } from './zh.ts';

export type { Lang };
export { DEFAULT_LANG, LANGS };

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Messages };
  }
}

let current: I18n | undefined;

/**
 * A synchronous i18next instance for one language. `messages` is that language's catalog, sent by
 * the root loader (see catalogs.server.ts); without it only the error-page fallback texts exist.
 */
export function createI18n(lang: Lang, messages?: Messages): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: lang,
    fallbackLng: false,
    resources: { [lang]: { translation: messages ?? fallbackMessages } },
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  });
  if (typeof document !== 'undefined') current = instance;
  return instance;
}

/** The browser's current translate function, for code outside React (the api client). */
export function browserT(): TFunction {
  if (!current) current = createI18n(langFromDocument());
  return current.t;
}

/** Root loader data: the page language and its catalog. */
export interface RootData {
  lang: Lang;
  messages: Messages;
}

/**
 * Reads the `lang` cookie from a Cookie header. Missing → default; present but unsupported →
 * 'invalid' (the root loader answers 404 for it, spec §8).
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
