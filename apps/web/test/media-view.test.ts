import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { MediaView, mediaElementOf } from '../app/components/ui/media-view.tsx';
import { I18nContext, createI18n } from '../app/i18n/index.ts';
import { en } from '../app/i18n/en.ts';
import { zh } from '../app/i18n/zh.ts';

const POSTER = '/media/uploads/public/img/202611/0123456789abcdef0123456789abcdef.png';
const VIDEO = '/media/uploads/public/media/202611/0123456789abcdef0123456789abcdef.mp4';
const MODEL = '/media/uploads/public/media/202611/0123456789abcdef0123456789abcdef.glb';

const render = (props: Parameters<typeof MediaView>[0], lang: 'zh' | 'en' = 'zh') =>
  renderToString(createElement(I18nContext, { value: createI18n(lang, lang === 'zh' ? zh : en) }, createElement(MediaView, props)));

describe('MediaView', () => {
  it('chooses the element by media kind; no media or an unknown kind is the cover image', () => {
    expect(mediaElementOf(undefined, undefined)).toBe('img');
    expect(mediaElementOf(null, VIDEO)).toBe('img');
    expect(mediaElementOf('image', POSTER)).toBe('img');
    expect(mediaElementOf('video', VIDEO)).toBe('video');
    expect(mediaElementOf('model', MODEL)).toBe('model');
    expect(mediaElementOf('video', null)).toBe('img');
    expect(mediaElementOf('model', '')).toBe('img');
  });

  it('an image renders as today (Thumb: renditions, eager LCP)', () => {
    const html = render({ poster: POSTER, alt: '作品', width: 600, height: 600, eager: true });
    expect(html).toContain('<img');
    expect(html).toContain('fetchPriority="high"');
    expect(html).toContain(`${POSTER}?w=`);
    expect(html).not.toContain('<video');
  });

  it('a video has native controls, its poster, preload none and playsinline, and a fallback text', () => {
    const html = render({ kind: 'video', src: VIDEO, poster: POSTER, alt: '作品', width: 600, height: 600 });
    expect(html).toMatch(/^<video /);
    expect(html).toContain(`src="${VIDEO}"`);
    expect(html).toContain(`poster="${POSTER}"`);
    expect(html).toContain('controls=""');
    expect(html).toContain('preload="none"');
    expect(html).toContain('playsInline=""');
    expect(html).toContain('您的浏览器不支持视频播放');
    expect(render({ kind: 'video', src: VIDEO, poster: POSTER, alt: 'a', width: 600, height: 600 }, 'en')).toContain('Your browser does not support video playback');
  });

  it('a 3D model is its poster on the server (no viewer, no model download) with a button to load it', () => {
    const html = render({ kind: 'model', src: MODEL, poster: POSTER, alt: '作品', width: 600, height: 600 });
    expect(html).toContain('data-testid="media-model"');
    expect(html).toContain(`src="${POSTER}"`);
    expect(html).not.toContain('model-viewer');
    expect(html).not.toContain(MODEL);
    expect(html).toContain('查看3D模型');
  });
});
