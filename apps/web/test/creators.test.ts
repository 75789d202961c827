import { describe, expect, it } from 'vitest';
import { CREATOR_LIMITS, MEDIA_LINK_MESSAGES, MEDIA_TYPES, mediaLinkProblem } from '@cfx/contract/creator-rules.ts';
import { formatMessage, type Lang } from '@cfx/contract/messages.ts';
import { translate } from '../app/i18n/index.ts';
import { en } from '../app/i18n/en.ts';
import { zh } from '../app/i18n/zh.ts';

/**
 * The creator dialogs check with the server's own rules (creator-rules.ts) and show the server's
 * texts: each catalog text equals the server message in the same language with the same values.
 */
const catalogs: Record<Lang, unknown> = { zh, en };

describe('creator profile rules in the browser', () => {
  it('media link problems', () => {
    expect(mediaLinkProblem({ type: 'weibo', label: '微博', url: 'https://weibo.com/u/1' })).toBeUndefined();
    expect(mediaLinkProblem({ type: 'website', label: '官网', url: 'https://studio.example.com/' })).toBeUndefined();
    expect(mediaLinkProblem({ type: 'website', label: '官网', url: 'http://studio.example.com/' })).toBe('url');
    expect(mediaLinkProblem({ type: 'weibo', label: '微博', url: 'https://example.com/weibo' })).toBe('host');
    expect(mediaLinkProblem({ type: 'nope', label: 'x', url: 'https://example.com/' })).toBe('type');
    expect(mediaLinkProblem({ type: 'website', label: ' ', url: 'https://example.com/' })).toBe('label');
  });

  it('every platform type has a label in both catalogs', () => {
    for (const lang of ['zh', 'en'] as const) for (const m of MEDIA_TYPES) expect(translate(catalogs[lang], `creators.mediaTypes.${m}`)).not.toBe(`creators.mediaTypes.${m}`);
  });

  it('the dialogs’ texts are the server messages', () => {
    for (const lang of ['zh', 'en'] as const) {
      const c = catalogs[lang];
      for (const [problem, key] of Object.entries(MEDIA_LINK_MESSAGES)) {
        expect(translate(c, `creators.editor.errors.${problem}`, { i: 2, n: CREATOR_LIMITS.labelMax })).toBe(formatMessage(key, lang, { i: 2, n: CREATOR_LIMITS.labelMax }));
      }
      expect(translate(c, 'creators.editor.errors.name', { n: 40 })).toBe(formatMessage('creatorBadName', lang, { n: 40 }));
      expect(translate(c, 'creators.editor.errors.intro', { n: 500 })).toBe(formatMessage('creatorBadIntro', lang, { n: 500 }));
      expect(translate(c, 'creators.composer.empty')).toBe(formatMessage('momentEmpty', lang));
      expect(translate(c, 'creators.composer.tooLong', { n: 1000 })).toBe(formatMessage('momentTooLong', lang, { n: 1000 }));
    }
  });
});
