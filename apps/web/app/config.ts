/**
 * Site constants that are not translated (addresses, identifiers, external links).
 * Everything a user reads as a sentence lives in i18n/zh.ts and i18n/en.ts instead.
 */
export const SITE = {
  /** Customer-service mailbox shown in the footer and the customer-service widget. */
  serviceEmail: 'service@cfxart.example',
  /** External official accounts ("more" submenu); placeholders until the real accounts exist. */
  videoSiteUrl: 'https://space.bilibili.com/',
  microblogUrl: 'https://weibo.com/',
  /** Filing numbers shown in the footer (placeholders). */
  icpNumber: '京ICP备00000000号-1',
  icpUrl: 'https://beian.miit.gov.cn/',
  policeNumber: '京公网安备 11000000000000号',
  policeUrl: 'https://beian.mps.gov.cn/',
  /** Fluent wallet's home: the header wallet icon opens it; also the install link. */
  fluentHomeUrl: 'https://fluentwallet.com/',
  /** Year the service started, for the copyright line. */
  sinceYear: 2024,
} as const;

/** Browser storage keys (localStorage unless noted). */
export const STORAGE = {
  token: 'token',
  savedMobile: 'savedMobile',
  /** sessionStorage: a toast to show after the next reload (login/register success). */
  flash: 'flashToast',
  /** The wallet kind linked last in this browser: 'fluent' | 'dev'. */
  walletKind: 'walletKind',
  /** sessionStorage: time of the last reload caused by a failed chunk load. */
  chunkReloadAt: 'chunkReloadAt',
} as const;

export const LANG_COOKIE = 'lang';
export const LANG_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/** The nine help pages, in menu order, grouped by part. */
export const HELP_PAGES = [
  { group: 'part1', slug: 'part1-1' },
  { group: 'part1', slug: 'part1-2' },
  { group: 'part2', slug: 'part2-1' },
  { group: 'part2', slug: 'part2-2' },
  { group: 'part3', slug: 'part3-1' },
  { group: 'part3', slug: 'part3-2' },
  { group: 'part4', slug: 'part4-1' },
  { group: 'part4', slug: 'part4-2' },
  { group: 'part5', slug: 'part5-1' },
] as const;
export type HelpSlug = (typeof HELP_PAGES)[number]['slug'];
export type HelpGroup = (typeof HELP_PAGES)[number]['group'];
