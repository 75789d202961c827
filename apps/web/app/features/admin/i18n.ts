import { useMemo } from 'react';
import { translate, useLang, type TVars } from '../../i18n/index.ts';
import { adminEn } from '../../i18n/admin.en.ts';
import { adminZh, type AdminMessages } from '../../i18n/admin.zh.ts';

/** Every console text key: the dotted path of a string in admin.zh.ts. */
type KeyPaths<T> = { [K in keyof T & string]: T[K] extends string ? K : `${K}.${KeyPaths<T[K]>}` }[keyof T & string];
export type AdminKey = KeyPaths<AdminMessages>;
export type AdminT = (key: AdminKey, vars?: TVars) => string;

/** The console's translate function in the page language (both catalogs ship with the console chunks only). */
export function useAdminT(): AdminT {
  const lang = useLang();
  return useMemo(() => {
    const catalog = lang === 'en' ? adminEn : adminZh;
    return (key: AdminKey, vars?: TVars) => translate(catalog, key, vars, lang);
  }, [lang]);
}
