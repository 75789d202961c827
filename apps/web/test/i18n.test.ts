import { describe, expect, it } from 'vitest';
import { en } from '../app/i18n/en.ts';
import { helpEn } from '../app/i18n/help.en.ts';
import { helpZh } from '../app/i18n/help.zh.ts';
import { createI18n, interpolate, langFromCookieHeader, translate } from '../app/i18n/index.ts';
import { legalEn } from '../app/i18n/legal.en.ts';
import { legalZh } from '../app/i18n/legal.zh.ts';
import { isPluralMessage } from '../app/i18n/plural.ts';
import { zh } from '../app/i18n/zh.ts';

/** Leaf keys; a count-aware message (`{ one?, other }`) is one leaf, whatever forms its language needs. */
function keys(obj: unknown, prefix = ''): string[] {
  if (typeof obj !== 'object' || obj === null || isPluralMessage(obj)) return [prefix];
  return Object.entries(obj).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('catalogs', () => {
  it('en has exactly the keys of zh (also enforced by the Messages type)', () => {
    expect(keys(en).sort()).toEqual(keys(zh).sort());
  });
  it('no empty strings', () => {
    for (const [name, cat] of Object.entries({ zh, en })) {
      for (const k of keys(cat)) {
        const value = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], cat);
        for (const text of isPluralMessage(value) ? Object.values(value) : [value]) expect(text, `${name}.${k}`).not.toBe('');
      }
    }
  });
  it('help articles exist in both languages with the same sections count', () => {
    for (const slug of Object.keys(helpZh.articles) as (keyof typeof helpZh.articles)[]) {
      expect(helpEn.articles[slug].sections.length, slug).toBe(helpZh.articles[slug].sections.length);
    }
    expect(Object.keys(helpZh.articles)).toHaveLength(9);
  });
  it('legal texts cover the spec points', () => {
    const ua = JSON.stringify(legalZh.userAgreement);
    for (const point of ['18 周岁', '七天无理由', '佣金', '第三方', '炒作', '场外交易', '洗钱', '操纵价格', '税费']) expect(ua).toContain(point);
    const pp = JSON.stringify(legalZh.privacyPolicy);
    for (const point of ['手机号', '身份证件', '昵称', '头像', '设备标识符', 'IP', '钱包', '搜索记录', 'Cookie', '中国大陆', '注销']) expect(pp).toContain(point);
    expect(legalEn.userAgreement.sections.length).toBe(legalZh.userAgreement.sections.length);
    expect(legalEn.privacyPolicy.sections.length).toBe(legalZh.privacyPolicy.sections.length);
  });
});

describe('lang cookie', () => {
  it('defaults to zh, accepts zh/en, flags anything else', () => {
    expect(langFromCookieHeader(null)).toBe('zh');
    expect(langFromCookieHeader('a=1')).toBe('zh');
    expect(langFromCookieHeader('a=1; lang=en')).toBe('en');
    expect(langFromCookieHeader('lang=zh')).toBe('zh');
    expect(langFromCookieHeader('lang=fr')).toBe('invalid');
    expect(langFromCookieHeader('lang=')).toBe('invalid');
    expect(langFromCookieHeader('xlang=fr')).toBe('zh');
  });
});

describe('translate', () => {
  const catalog = { a: { b: 'Hi {{name}}, {{ n }} left', plain: '无变量' }, top: '{{x}}{{x}}' };
  it('looks up dotted keys and fills {{name}} placeholders', () => {
    expect(translate(catalog, 'a.b', { name: 'Ann', n: 3 })).toBe('Hi Ann, 3 left');
    expect(translate(catalog, 'a.plain')).toBe('无变量');
    expect(translate(catalog, 'top', { x: '$&' })).toBe('$&$&');
  });
  it('returns the key when it is missing or not a text', () => {
    expect(translate(catalog, 'a.c')).toBe('a.c');
    expect(translate(catalog, 'a')).toBe('a');
    expect(translate(undefined, 'a.b')).toBe('a.b');
  });
  it('keeps a placeholder without a value, empties a null one (like i18next)', () => {
    expect(translate(catalog, 'a.b', { name: 'Ann' })).toBe('Hi Ann, {{ n }} left');
    expect(translate(catalog, 'a.b')).toBe('Hi {{name}}, {{ n }} left');
    expect(translate(catalog, 'a.b', { name: null, n: undefined })).toBe('Hi ,  left');
  });
  it('uses the catalog of its language, or the error-page fallback texts', () => {
    expect(createI18n('en', en).t('catalog.remaining', { count: 7 })).toBe(en.catalog.remaining.replace('{{count}}', '7'));
    expect(createI18n('zh', zh).t('footer.copyright', { from: 2024, to: 2025, company: 'X' })).toBe('© 2024-2025 X 版权所有');
    const fallback = createI18n('zh');
    expect(fallback.t('error.backHome')).toBe('返回首页');
    expect(fallback.t('nav.home')).toBe('nav.home');
  });
});

describe('plurals (Intl.PluralRules)', () => {
  const catalog = { n: { other: '{{count}} 件' }, e: { one: '{{count}} item', other: '{{count}} items' }, zero: { zero: 'none', one: 'one', other: '{{count}}' } };
  it('picks the form of count in the language, other when the form is missing', () => {
    expect([0, 1, 2].map((count) => translate(catalog, 'e', { count }, 'en'))).toEqual(['0 items', '1 item', '2 items']);
    expect([0, 1, 2].map((count) => translate(catalog, 'n', { count }, 'zh'))).toEqual(['0 件', '1 件', '2 件']);
    // English has no `zero` category: 0 is `other`.
    expect(translate(catalog, 'zero', { count: 0 }, 'en')).toBe('0');
    expect(translate(catalog, 'e', { count: '1' }, 'en')).toBe('1 item');
    expect(translate(catalog, 'e', {}, 'en')).toBe('{{count}} items');
  });
  it('every "(s)" of the English catalog became a count-aware message', () => {
    const leaves = (o: unknown): string[] => (typeof o === 'string' ? [o] : Object.values(o as object).flatMap(leaves));
    expect(leaves(en).filter((s) => /\w\((s|es)\)/.test(s))).toEqual([]);
  });
  it('t() of the real catalogs for 0 / 1 / 2 in en and zh', () => {
    const t = { en: createI18n('en', en).t, zh: createI18n('zh', zh).t };
    expect([0, 1, 2].map((count) => t.en('tickets.unreadCount', { count }))).toEqual(['0 tickets with a new reply', '1 ticket with a new reply', '2 tickets with a new reply']);
    expect([0, 1, 2].map((count) => t.en('compose.burns', { count }))).toEqual(['0 fragments used', '1 fragment used', '2 fragments used']);
    expect([0, 1, 2].map((count) => t.en('privacy.cancel.blockers.orders', { count }))).toEqual([
      '0 unfinished orders (complete or cancel them)',
      '1 unfinished order (complete or cancel it)',
      '2 unfinished orders (complete or cancel them)',
    ]);
    expect(t.en('shift.dialog.holding', { count: 1, time: 'T' })).toBe('Holding period 1 day: it can move after T');
    expect([1, 2].map((count) => t.en('messageCenter.unreadLabel', { count }))).toEqual(['1 unread message', '2 unread messages']);
    expect(t.en('creators.followersCount', { count: 1 })).toBe('1 follower');
    expect(t.zh('creators.followersCount', { count: 1 })).toBe('1 粉丝');
    expect([0, 1, 2].map((count) => t.zh('tickets.unreadCount', { count }))).toEqual(['0 个工单有新回复', '1 个工单有新回复', '2 个工单有新回复']);
    expect(t.zh('compose.burns', { count: 1 })).toBe('消耗 1 枚碎片');
    expect(t.zh('privacy.cancel.cooling', { date: 'D', count: 2 })).toBe('注销申请已提交，将于 D 生效（剩余 2 天）。在此之前你可以随时撤销。');
  });
});

describe('interpolate', () => {
  it('replaces every occurrence of every placeholder, once', () => {
    expect(interpolate('{{a}}-{{b}}-{{a}}-{{ b }}', { a: 1, b: 'x' })).toBe('1-x-1-x');
    expect(interpolate('{{a}}', { a: '{{b}}', b: 'no' })).toBe('{{b}}');
    expect(interpolate('{{a}}{{a}}', { a: '$&$1' })).toBe('$&$1$&$1');
    expect(translate({ k: '{{n}} of {{n}}' }, 'k', { n: 3 })).toBe('3 of 3');
  });
});
