import { NOTICE_TEXTS, type MessageItem, type MessageKind } from '@cfx/contract/user-messages.ts';
import type { Lang } from '@cfx/contract/messages.ts';
import { interpolate } from '@cfx/contract/interpolate.ts';
import { formatFen } from '@cfx/protocol/money.ts';
import { formatChinaDateTime } from '@cfx/protocol/china-time.ts';

/** Template parameters as stored (JSON): amounts in fen (`…Fen`), instants in epoch ms (`…At`). */
export type NoticeParams = Record<string, string | number | boolean | null | undefined>;

/** China Standard Time (UTC+8, no daylight saving): `2026-01-02 15:04`. */
export function cstDateTime(ms: number): string {
  return formatChinaDateTime(ms, { seconds: false });
}

/**
 * The values a template's `{x}` placeholders take: every parameter as text, plus `{x}` as money for
 * a parameter `xFen` and as a CST date-time for a parameter `xAt`.
 */
export function templateVars(params: NoticeParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined) continue;
    out[k] = String(v);
    if (typeof v === 'number' && Number.isSafeInteger(v)) {
      if (k.endsWith('Fen') && k.length > 3) out[k.slice(0, -3)] = formatFen(v);
      else if (k.endsWith('At') && k.length > 2) out[k.slice(0, -2)] = cstDateTime(v);
    }
  }
  return out;
}

/** One template text in `lang` with its placeholders filled (unknown placeholders become empty). */
export function renderNotice(key: string, params: NoticeParams, lang: Lang): string {
  const entry = (NOTICE_TEXTS as Record<string, { zh: string; en: string }>)[key];
  if (!entry) return key;
  const vars = templateVars(params);
  return interpolate(entry[lang], vars, { missing: 'empty' });
}

export function parseParams(text: string): NoticeParams {
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

export interface MessageRow {
  id: number;
  kind: MessageKind;
  title_key: string;
  body_key: string;
  params: string;
  link: string | null;
  read_at: number | null;
  created_at: number;
}

/** A stored message as the reader sees it, in their language. */
export function messageView(r: MessageRow, lang: Lang): MessageItem {
  const params = parseParams(r.params);
  return {
    id: Number(r.id),
    kind: r.kind,
    title: renderNotice(r.title_key, params, lang),
    body: renderNotice(r.body_key, params, lang),
    link: r.link,
    read: r.read_at !== null,
    readAt: r.read_at === null ? null : Number(r.read_at),
    createdAt: Number(r.created_at),
  };
}
