/**
 * Creators, follows and moments (issue #11, docs/api.md "Follow and creators"): the limits and the
 * rules of a creator's profile and media links, shared by the server (which decides) and the web
 * dialogs (which check first, with the same texts). No zod here: the web bundle imports this module
 * as values.
 */
import type { MessageKey } from './messages.ts';

export const CREATOR_LIMITS = {
  nameMax: 40,
  introMax: 500,
  mediaLinksMax: 8,
  labelMax: 20,
  urlMax: 300,
  /** A moment's text, counted in characters (code points) of its plain text. */
  momentTextMax: 1000,
  /** What a moment's body may carry before sanitising (markup included). */
  momentRawMax: 5000,
  momentImagesMax: 9,
  /** Moments one creator may post per 24 hours. */
  momentsPerDay: 20,
  /** Follow / unfollow calls one user may make per minute. */
  followActionsPerMinute: 30,
} as const;

/**
 * Media link types and the hosts each accepts (a link's host must be one of them or a subdomain).
 * `website` takes any public https host. Labels of the types live in the web catalogs
 * (creators.mediaTypes.*).
 */
export const MEDIA_PLATFORMS = {
  weibo: ['weibo.com', 'weibo.cn'],
  douyin: ['douyin.com', 'iesdouyin.com'],
  bilibili: ['bilibili.com', 'b23.tv'],
  xiaohongshu: ['xiaohongshu.com', 'xhslink.com'],
  zhihu: ['zhihu.com'],
  wechat: ['weixin.qq.com'],
  twitter: ['twitter.com', 'x.com'],
  instagram: ['instagram.com'],
  youtube: ['youtube.com', 'youtu.be'],
  website: null,
} as const satisfies Record<string, readonly string[] | null>;
export type MediaType = keyof typeof MEDIA_PLATFORMS;
export const MEDIA_TYPES = Object.keys(MEDIA_PLATFORMS) as MediaType[];

export interface MediaLinkInput {
  type: string;
  label: string;
  url: string;
}

export type MediaLinkProblem = 'type' | 'label' | 'url' | 'host';
export const MEDIA_LINK_MESSAGES: Record<MediaLinkProblem, MessageKey> = {
  type: 'mediaLinkBadType',
  label: 'mediaLinkBadLabel',
  url: 'mediaLinkBadUrl',
  host: 'mediaLinkBadHost',
};

/** Characters a one-line text field never holds (controls, bidi overrides, zero-width marks). */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;
const chars = (s: string) => [...s].length;

/** A one-line text: trimmed, 1…max characters, no control or bidi characters. */
export function lineOk(s: string, max: number, min = 1): boolean {
  const v = s.trim();
  return chars(v) >= min && chars(v) <= max && !UNSAFE.test(v);
}

/** A multi-line text (newlines allowed, other control characters not), 0…max characters. */
export function textOk(s: string, max: number): boolean {
  return chars(s.trim()) <= max && !/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(s);
}

/**
 * Why a media link is refused, or undefined when it is fine: a known type; a label of 1–20
 * characters; an https URL of at most 300 characters with a public host name (no credentials, no
 * IP literal, no localhost, no port other than 443) — for a platform type a host of that platform.
 */
export function mediaLinkProblem(link: MediaLinkInput): MediaLinkProblem | undefined {
  if (!Object.hasOwn(MEDIA_PLATFORMS, link.type)) return 'type';
  if (!lineOk(link.label, CREATOR_LIMITS.labelMax)) return 'label';
  const raw = link.url.trim();
  if (raw.length > CREATOR_LIMITS.urlMax || /\s/.test(raw) || UNSAFE.test(raw)) return 'url';
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'url';
  }
  const host = u.hostname.toLowerCase().replace(/\.$/, '');
  const ipLiteral = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[');
  if (u.protocol !== 'https:' || u.username || u.password || (u.port && u.port !== '443')) return 'url';
  if (!host.includes('.') || ipLiteral || host === 'localhost' || host.endsWith('.localhost') || !/^[a-z0-9.-]+$/.test(host)) return 'url';
  const hosts = MEDIA_PLATFORMS[link.type as MediaType];
  if (hosts && !hosts.some((h) => host === h || host.endsWith(`.${h}`))) return 'host';
  return undefined;
}

/** The link as stored: trimmed label and URL (normalised by the URL parser). */
export function normaliseMediaLink(link: MediaLinkInput): MediaLinkInput {
  return { type: link.type, label: link.label.trim(), url: new URL(link.url.trim()).toString() };
}
