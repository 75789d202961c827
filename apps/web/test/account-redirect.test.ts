import { describe, expect, it } from 'vitest';
import { accountHref, redirectOf, safeRedirect } from '../app/features/auth/redirect.ts';

describe('the return target of the /account pages', () => {
  it('keeps same-origin relative paths with their query and hash', () => {
    expect(safeRedirect('/assets/12')).toBe('/assets/12');
    expect(safeRedirect('/search-object?str=%E9%BE%99#top')).toBe('/search-object?str=%E9%BE%99#top');
    expect(safeRedirect('/personal-center/my-sale?tab=2')).toBe('/personal-center/my-sale?tab=2');
    expect(redirectOf(new URLSearchParams('from=/news/3'))).toBe('/news/3');
    expect(redirectOf(new URLSearchParams('redirect=/sales&from=/news/3'))).toBe('/sales');
  });

  it('refuses anything that could leave the site, and /account itself', () => {
    for (const bad of [
      'https://evil.example/', '//evil.example/x', '/\\evil.example', '\\\\evil.example', 'javascript:alert(1)', 'evil.example', ' /assets',
      '/\t/evil.example', '/ok\nSet-Cookie:x', 'data:text/html,hi', '', null, undefined, '/account/login', '/account', '/account/register?redirect=/x',
      `/${'a'.repeat(2100)}`,
    ]) {
      expect(safeRedirect(bad), String(bad)).toBe('/');
    }
    // Encoded slashes stay a path on this site.
    expect(safeRedirect('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example');
  });

  it('builds the /account links with the target (none for the home page)', () => {
    expect(accountHref('login', '/')).toBe('/account/login');
    expect(accountHref('register', '/assets/1', { inviteCode: 'AB12' })).toBe('/account/register?inviteCode=AB12&redirect=%2Fassets%2F1');
    expect(accountHref('forgot', '/a?b=c')).toBe('/account/forgot-password?redirect=%2Fa%3Fb%3Dc');
  });
});
