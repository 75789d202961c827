import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { PasswordField } from '../app/components/ui/fields.tsx';

const noop = () => {};

describe('PasswordField', () => {
  it('a hidden password with a show/hide toggle named by the label, cut at the user maximum (20)', () => {
    const html = renderToString(createElement(PasswordField, { label: '密码', testId: 'login-password', value: 'abc123', onValue: noop, autoComplete: 'current-password', placeholder: '请输入密码' }));
    expect(html).toContain('type="password"');
    expect(html).toContain('maxLength="20"');
    expect(html).toContain('data-testid="login-password-toggle"');
    expect(html).toContain('aria-pressed="false"');
    expect(html).toContain('aria-label="密码"');
    expect(html).toMatch(/<label[^>]*class="sr-only"[^>]*>密码<\/label>/);
  });
  it('the console look: a visible label and the rule below; null means no limit', () => {
    const html = renderToString(
      createElement(PasswordField, { label: '新密码', hint: '至少 10 位', testId: 'admin-newpw', value: '', onValue: noop, autoComplete: 'new-password', visibleLabel: true, maxLength: null }),
    );
    expect(html).not.toContain('sr-only');
    expect(html).toContain('至少 10 位');
    expect(html).not.toContain('maxLength');
  });
});
