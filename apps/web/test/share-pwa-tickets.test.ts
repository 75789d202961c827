import { describe, expect, it } from 'vitest';
import { cleanInviteCode, inviteLink, pagePath, posterUrl, shareLink } from '../app/features/share/links.ts';
import { installPlatform } from '../app/features/pwa/platform.ts';
import { canReopen, charCount, firstInvalid } from '../app/features/tickets/validate.ts';

describe('share links', () => {
  const goods = { type: 'goods' as const, id: 12 };
  const project = { type: 'project' as const, id: 7 };
  it('point at the asset and release pages, with my invite code when there is one', () => {
    expect(pagePath(goods)).toBe('/assets/12');
    expect(pagePath(project)).toBe('/projects/detail/7');
    expect(shareLink('https://a.example', goods, 'ab12cd')).toBe('https://a.example/assets/12?inviteCode=AB12CD');
    expect(shareLink('https://a.example', project)).toBe('https://a.example/projects/detail/7');
    expect(inviteLink('https://a.example', 'AB12CD')).toBe('https://a.example/?inviteCode=AB12CD');
  });
  it('build the poster URL with the language and a usable invite code only', () => {
    expect(posterUrl(goods, 'zh', 'AB12CD')).toBe('/mvapi/public/official/poster/?type=goods&id=12&lang=zh&inviteCode=AB12CD');
    expect(posterUrl(project, 'en')).toBe('/mvapi/public/official/poster/?type=project&id=7&lang=en');
    // Anything that is not an invite code is left out rather than sent.
    for (const bad of ['', '  ', 'a&b=c', 'TOO-LONG-CODE', '<x>']) expect(cleanInviteCode(bad)).toBe('');
    expect(posterUrl(goods, 'zh', 'a&b=c')).not.toContain('inviteCode');
  });
});

describe('install platform', () => {
  const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
  const ipad = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
  const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
  const desktop = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
  const edge = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0';
  const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0';
  it('tells iOS Safari (also iPadOS with a Mac user agent), Android, desktop Chromium and others apart', () => {
    expect(installPlatform(iphone, { standalone: false })).toBe('ios');
    expect(installPlatform(ipad, { standalone: false, touchPoints: 5 })).toBe('ios');
    expect(installPlatform(ipad, { standalone: false, touchPoints: 0 })).toBe('other');
    expect(installPlatform(android, { standalone: false })).toBe('android');
    expect(installPlatform(desktop, { standalone: false })).toBe('desktop');
    expect(installPlatform(edge, { standalone: false })).toBe('desktop');
    expect(installPlatform(firefox, { standalone: false })).toBe('other');
    expect(installPlatform(desktop, { standalone: true })).toBe('standalone');
  });
});

describe('ticket form', () => {
  const ok = { category: 'order', subject: '订单未到账', content: '付款后藏品没有到账', attachmentKeys: [], orderNo: '' };
  it('uses the server rules: the first invalid field in the form order', () => {
    expect(firstInvalid(ok)).toBeUndefined();
    expect(firstInvalid({ ...ok, category: '' })).toBe('category');
    expect(firstInvalid({ ...ok, category: '', subject: '' })).toBe('category');
    expect(firstInvalid({ ...ok, subject: 'x'.repeat(61) })).toBe('subject');
    expect(firstInvalid({ ...ok, content: '字'.repeat(2001) })).toBe('content');
    expect(firstInvalid({ ...ok, content: '字'.repeat(2000) })).toBeUndefined();
    expect(firstInvalid({ ...ok, attachmentKeys: ['a', 'b', 'c', 'd'] })).toBe('attachmentKeys');
    expect(firstInvalid({ ...ok, orderNo: '12 34' })).toBe('orderNo');
    expect(firstInvalid({ ...ok, orderNo: ' D2025ABC_1 ' })).toBeUndefined();
  });
  it('counts characters as people do and knows the reopen window', () => {
    expect(charCount(' 汉字😀 ')).toBe(3);
    expect(canReopen({ status: 'closed', reopenUntil: 1000 }, 999)).toBe(true);
    expect(canReopen({ status: 'closed', reopenUntil: 1000 }, 1001)).toBe(false);
    expect(canReopen({ status: 'open', reopenUntil: null }, 0)).toBe(false);
  });
});
