import { describe, expect, it } from 'vitest';
import { adminEn } from '../app/i18n/admin.en.ts';
import { adminZh } from '../app/i18n/admin.zh.ts';
import { creatorFormOf, creatorFormProblem, creatorPatch, patchChanges, type CreatorForm } from '../app/features/admin/creator-form.ts';

/** The console's creator profile form: the server's checks made first, and an update body with only what changed. */
const creator = {
  id: 7,
  name: '青山工作室',
  intro: '以山海经为题材。',
  avatar: '/media/uploads/public/img/a.png',
  banner: '/media/uploads/public/img/b.png',
  mediaLinks: [{ type: 'weibo', label: '微博', url: 'https://weibo.com/qingshan' }],
};

describe('creator profile form', () => {
  it('an untouched form changes nothing', () => {
    const f = creatorFormOf(creator);
    expect(creatorFormProblem(f)).toBeNull();
    const p = creatorPatch(creator, f);
    expect(p).toEqual({ id: 7 });
    expect(patchChanges(p)).toBe(false);
    // Only surrounding spaces: still nothing.
    expect(patchChanges(creatorPatch(creator, { ...f, name: ' 青山工作室 ', intro: '以山海经为题材。\r\n', links: [{ type: 'weibo', label: ' 微博', url: 'https://weibo.com/qingshan ' }] }))).toBe(false);
  });

  it('sends only the changed fields, trimmed', () => {
    const f = creatorFormOf(creator);
    const p = creatorPatch(creator, { ...f, name: '  青山画室 ', intro: '第一行\r\n第二行' });
    expect(p).toEqual({ id: 7, name: '青山画室', intro: '第一行\n第二行' });
    const links = creatorPatch(creator, { ...f, links: [...f.links, { type: 'website', label: '官网', url: 'https://qingshan.example.com/ ' }] });
    expect(links).toEqual({ id: 7, mediaLinks: [...creator.mediaLinks, { type: 'website', label: '官网', url: 'https://qingshan.example.com/' }] });
    expect(creatorPatch(creator, { ...f, links: [] })).toEqual({ id: 7, mediaLinks: [] });
    expect(creatorPatch(creator, { ...f, avatar: '/media/uploads/public/img/c.png' })).toEqual({ id: 7, avatar: '/media/uploads/public/img/c.png' });
  });

  it('finds the first problem with the rules of creator-rules.ts, in both catalogs', () => {
    const f = creatorFormOf(creator);
    const cases: [CreatorForm, string][] = [
      [{ ...f, name: '' }, 'creators.badName'],
      [{ ...f, name: '名'.repeat(41) }, 'creators.badName'],
      [{ ...f, name: 'a\u202eb' }, 'creators.badName'],
      [{ ...f, intro: '字'.repeat(501) }, 'creators.badIntro'],
      [{ ...f, avatar: ' ' }, 'creators.needAvatar'],
      [{ ...f, banner: '' }, 'creators.needBanner'],
      [{ ...f, links: Array.from({ length: 9 }, () => creator.mediaLinks[0]!) }, 'creators.tooManyLinks'],
      [{ ...f, links: [...f.links, { type: 'weibo', label: '抖音', url: 'https://douyin.com/x' }] }, 'creators.linkBadHost'],
      [{ ...f, links: [{ type: 'website', label: '', url: 'https://a.example.com' }] }, 'creators.linkBadLabel'],
      [{ ...f, links: [{ type: 'website', label: '官网', url: 'http://a.example.com' }] }, 'creators.linkBadUrl'],
      [{ ...f, links: [{ type: 'myspace', label: '官网', url: 'https://a.example.com' }] }, 'creators.linkBadType'],
    ];
    for (const [form, key] of cases) {
      const p = creatorFormProblem(form);
      expect(p?.key, JSON.stringify(form).slice(0, 80)).toBe(key);
      const [group, name] = key.split('.') as ['creators', keyof typeof adminZh.creators];
      expect(adminZh[group][name]).toBeTruthy();
      expect(adminEn[group][name]).toBeTruthy();
    }
    expect(creatorFormProblem({ ...f, links: [...f.links, { type: 'weibo', label: '抖音', url: 'https://douyin.com/x' }] })?.vars).toMatchObject({ i: 2 });
    expect(creatorFormProblem({ ...f, name: '名'.repeat(40), intro: '字'.repeat(500) })).toBeNull();
  });
});
