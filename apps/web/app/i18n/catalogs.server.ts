import type { Lang } from '@cfx/contract/messages.ts';
import { en } from './en.ts';
import { zh, type Messages } from './zh.ts';

/**
 * Server-only: the root loader sends the active language's catalog with the page, so the client
 * bundle carries no catalog (initial JS stays small as the catalogs grow with later issues).
 */
export const catalogs: Record<Lang, Messages> = { zh, en };
