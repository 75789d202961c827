import type { Lang } from '@cfx/contract/messages.ts';
import { en } from './en.ts';
import { pickNamespaces, type Namespace } from './namespaces.ts';
import { zh, type Messages } from './zh.ts';

/**
 * Server-only: the root loader sends the page's namespaces of the active language's catalog with
 * the page (namespaces.ts), so the client bundle carries no catalog and a page's HTML only the
 * strings its route uses.
 */
export const catalogs: Record<Lang, Messages> = { zh, en };

/** The sections of `lang`'s catalog in `namespaces`. */
export function catalogPart(lang: Lang, namespaces: readonly Namespace[]): Partial<Messages> {
  return pickNamespaces(catalogs[lang], namespaces);
}
