import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { Thumb } from '../app/components/ui/thumb.tsx';
import { thumbSrcSet } from '../app/components/ui/thumb-url.ts';
import { AppStyles, InlineCssContext } from '../app/lib/inline-css.tsx';

const ART = '/mvapi/public/official/image/?id=r-0-2840370509';

describe('responsive thumbnails', () => {
  it('generated artwork gets WebP renditions up to the first width covering 2× the displayed width', () => {
    expect(thumbSrcSet(ART, 600)).toEqual({
      srcSet: [240, 480, 720, 960, 1200].map((w) => `${ART}&w=${w}&fmt=webp ${w}w`).join(', '),
      sizes: '(max-width: 632px) calc(100vw - 2rem), 600px',
    });
    expect(thumbSrcSet(ART, 288).sizes).toBe('(max-width: 640px) 50vw, 288px');
    expect(thumbSrcSet(`${ART}&w=100&fmt=svg`, 288, '50vw')).toEqual({
      srcSet: [240, 480, 720].map((w) => `${ART}&w=${w}&fmt=webp ${w}w`).join(', '),
      sizes: '50vw',
    });
  });

  it('own public uploads get ?w=&fmt=webp; avatars, external images, private keys and small thumbnails none', () => {
    expect(thumbSrcSet('/media/uploads/public/creator/abc123.jpg', 120).srcSet).toBe(
      '/media/uploads/public/creator/abc123.jpg?w=240&fmt=webp 240w',
    );
    expect(thumbSrcSet('/media/uploads/public/creator/abc123.gif', 600)).toEqual({});
    expect(thumbSrcSet('/media/avatars/4.svg', 600)).toEqual({});
    expect(thumbSrcSet('https://cdn.example.com/a.jpg', 600)).toEqual({});
    expect(thumbSrcSet(ART, 96)).toEqual({});
    expect(thumbSrcSet('', 600)).toEqual({});
  });

  it('an eager image is preloaded in the head with fetchpriority=high and its srcset; lazy ones are not', () => {
    const html = renderToString(
      createElement(
        'html',
        null,
        createElement('head'),
        createElement(
          'body',
          null,
          createElement(Thumb, { src: ART, alt: 'cover', width: 600, height: 600, eager: true }),
          createElement(Thumb, { src: `${ART}-2`, alt: 'other', width: 288, height: 288 }),
        ),
      ),
    );
    const head = html.slice(0, html.indexOf('</head>'));
    const preloads = head.match(/<link rel="preload" as="image"[^>]*>/g) ?? [];
    expect(preloads).toHaveLength(1);
    expect(preloads[0]).toContain('fetchPriority="high"');
    expect(preloads[0]).toContain(`imageSrcSet="${thumbSrcSet(ART, 600).srcSet!.replaceAll('&', '&amp;')}"`);
    expect(preloads[0]).toContain('imageSizes="(max-width: 632px) calc(100vw - 2rem), 600px"');
    const imgs = html.match(/<img [^>]*>/g) ?? [];
    expect(imgs[0]).toContain('fetchPriority="high"');
    expect(imgs[0]).not.toContain('loading="lazy"');
    expect(imgs[1]).toContain('loading="lazy"');
    expect(imgs[1]).not.toContain('fetchPriority');
  });
});

describe('inline stylesheet', () => {
  it('the server writes the CSS it is given into one <style id="app-css">, else links the stylesheet', () => {
    const css = '.a{color:red}';
    const inline = renderToString(createElement(InlineCssContext, { value: css }, createElement(AppStyles)));
    expect(inline).toBe(`<style id="app-css">${css}</style>`);
    const linked = renderToString(createElement(AppStyles));
    // (Vitest leaves the `?url` import empty, so no href here; the build gives /assets/app-<hash>.css.)
    expect(linked).toMatch(/^<link rel="stylesheet"[^>]*\/>$/);
  });
});
