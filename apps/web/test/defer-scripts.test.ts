import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { deferScripts, deferScriptsStream } from '../app/lib/defer-scripts.server.ts';

const DOC =
  '<!DOCTYPE html><html><head><meta charSet="utf-8"/><link rel="preload" as="image" href="/i.webp" fetchPriority="high"/>' +
  '<link rel="modulepreload" href="/assets/entry.client-A.js" nonce="n1"/><link rel="modulepreload" href="/assets/root-B.js" nonce="n1"/>' +
  '<style id="app-css">a{}</style></head><body><main>hi</main>' +
  '<script nonce="n1">window.__reactRouterContext = {};</script>' +
  '<script nonce="n1" type="module" async="">;\nimport * as route0 from "/assets/root-B.js";\nimport * as route1 from "/assets/home-C.js";\n' +
  '  window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};\n\nimport("/assets/entry.client-A.js");</script>' +
  '<script nonce="n1">window.__reactRouterContext.streamController.close();</script></body></html>';

async function streamed(html: string, size: number): Promise<string> {
  const parts: Buffer[] = [];
  const buf = Buffer.from(html);
  for (let i = 0; i < buf.length; i += size) parts.push(buf.subarray(i, i + size));
  const out: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    Readable.from(parts).pipe(deferScriptsStream()).on('data', (c: Buffer) => out.push(Buffer.from(c))).on('end', resolve).on('error', reject);
  });
  return Buffer.concat(out).toString('utf8');
}

describe('scripts start after the first paint', () => {
  it('takes the modulepreloads out of the head and has the module script re-add them after a frame, then import', () => {
    const out = deferScripts(DOC);
    const head = out.slice(0, out.indexOf('</head>'));
    expect(head).not.toContain('modulepreload');
    expect(head).toContain('<link rel="preload" as="image" href="/i.webp" fetchPriority="high"/>');
    const script = /<script nonce="n1" type="module" async="">([\s\S]*?)<\/script>/.exec(out)![1]!;
    expect(script).not.toMatch(/import \* as/);
    expect(script.indexOf('requestAnimationFrame')).toBeLessThan(script.indexOf('modulepreload'));
    expect(script).toContain('const modulePreloads = ["/assets/entry.client-A.js","/assets/root-B.js"];');
    expect(script).toContain('const [route0, route1] = await Promise.all([import("/assets/root-B.js"), import("/assets/home-C.js")]);');
    expect(script).toContain('window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};');
    expect(script.trim().endsWith('import("/assets/entry.client-A.js");')).toBe(true);
    // Everything else is untouched.
    expect(out.replace(/<script nonce="n1" type="module"[\s\S]*?<\/script>/, '')).toBe(
      DOC.replace(/<link rel="modulepreload"[^>]*\/>/g, '').replace(/<script nonce="n1" type="module"[\s\S]*?<\/script>/, ''),
    );
  });

  it('the stream gives the same document whatever the chunk sizes (multi-byte text split too)', async () => {
    const doc = DOC.replace('<main>hi</main>', '<main>数字藏品 — 发售日历</main>');
    const whole = deferScripts(doc);
    for (const size of [1, 3, 7, 64, 100_000]) expect(await streamed(doc, size), String(size)).toBe(whole);
  });

  it('a document without the expected module script is passed through unchanged, preloads kept', async () => {
    const plain = DOC.replace(/<script nonce="n1" type="module"[\s\S]*?<\/script>/, '');
    expect(deferScripts(plain)).toBe(plain);
    const out = await streamed(plain, 5);
    expect(out.match(/rel="modulepreload"/g)).toHaveLength(2);
    expect(out.replace(/<link rel="modulepreload"[^>]*\/>/g, '')).toBe(plain.replace(/<link rel="modulepreload"[^>]*\/>/g, ''));
  });
});
