import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * The page's JavaScript starts after the first paint (mobile speed): React Router writes a
 * `<link rel="modulepreload">` per script into the `<head>` and an inline module script whose static
 * `import`s load the route modules before hydrating. Both start ≈ 35 downloads (≈ 140 KiB gzip) while
 * the browser is still fetching the HTML and the LCP image. This stream rewrites the document so that
 * the module script first waits for a frame (or 100 ms, for a tab in the background), then adds the
 * same modulepreload links (the downloads stay parallel) and imports the route modules dynamically —
 * hydration begins one paint later, the first paint and the LCP image no longer share the network
 * with the scripts.
 *
 * The scripts are the same and all of them are still named in the HTML (the module script's
 * `const modulePreloads = [...]`, which `scripts/smoke.mjs` and the bench read), so the initial-JS
 * count is unchanged. Anything unexpected (no
 * module script with static route imports) is passed through as React wrote it.
 */

const PRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
const MODULE_SCRIPT = /(<script[^>]*\stype="module"[^>]*>)([\s\S]*?)(<\/script>)/;
const STATIC_IMPORT = /import \* as (\w+) from ("[^"]+");/g;

/** Takes the modulepreload links out of a piece of the head; returns the rest and their hrefs. */
export function takePreloads(head: string): { html: string; hrefs: string[] } {
  const hrefs: string[] = [];
  const html = head.replace(PRELOAD, (_m, href: string) => {
    hrefs.push(href);
    return '';
  });
  return { html, hrefs };
}

/** The module script's text, rewritten to wait for a paint, re-add the preloads and import dynamically (undefined: leave it). */
export function deferModuleScript(body: string, hrefs: string[]): string | undefined {
  const imports: [string, string][] = [];
  const rest = body.replace(STATIC_IMPORT, (_m, name: string, from: string) => {
    imports.push([name, from]);
    return '';
  });
  if (!imports.length || /\bimport\s+["*{]/.test(rest)) return undefined;
  const gate = 'await new Promise((r) => { let d = false; const go = () => { if (!d) { d = true; setTimeout(r, 0); } }; requestAnimationFrame(go); setTimeout(go, 100); });';
  const preload = hrefs.length
    ? `const modulePreloads = ${JSON.stringify(hrefs)};\nfor (const h of modulePreloads) { const l = document.createElement('link'); l.rel = 'modulepreload'; l.href = h; document.head.appendChild(l); }`
    : '';
  const load = `const [${imports.map(([n]) => n).join(', ')}] = await Promise.all([${imports.map(([, f]) => `import(${f})`).join(', ')}]);`;
  return `${gate}\n${preload}\n${load}\n${rest}`;
}

/** The whole rewrite on a complete document (tests; the server streams with deferScriptsStream). */
export function deferScripts(html: string): string {
  const end = html.indexOf('</head>');
  if (end < 0) return html;
  const { html: head, hrefs } = takePreloads(html.slice(0, end));
  const body = html.slice(end);
  const m = MODULE_SCRIPT.exec(body);
  const script = m ? deferModuleScript(m[2]!, hrefs) : undefined;
  if (!m || script === undefined) return html;
  return head + body.slice(0, m.index) + m[1] + script + m[3] + body.slice(m.index + m[0].length);
}

/**
 * A streaming version: holds the document until `</head>` (the preloads are all there), then passes
 * the body through except the module script, which it holds until its `</script>`. Later chunks
 * (streamed Suspense boundaries) go straight through.
 */
export function deferScriptsStream(): Transform {
  const decoder = new StringDecoder('utf8');
  let state: 'head' | 'body' | 'done' = 'head';
  let pending = '';
  let hrefs: string[] = [];
  let removed = '';
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      pending += decoder.write(chunk);
      this.push(step(false));
      done();
    },
    flush(done) {
      pending += decoder.end();
      this.push(step(true));
      done();
    },
  });

  function step(last: boolean): string {
    let out = '';
    if (state === 'head') {
      const end = pending.indexOf('</head>');
      if (end < 0) {
        if (!last) return '';
        state = 'done';
        out = pending;
        pending = '';
        return out;
      }
      const taken = takePreloads(pending.slice(0, end));
      hrefs = taken.hrefs;
      removed = pending.slice(0, end);
      out += taken.html;
      pending = pending.slice(end);
      state = 'body';
    }
    if (state === 'body') {
      const m = MODULE_SCRIPT.exec(pending);
      if (m) {
        const script = deferModuleScript(m[2]!, hrefs);
        out += pending.slice(0, m.index) + m[1] + (script ?? m[2]) + m[3];
        if (script === undefined) out = restorePreloads(out);
        pending = pending.slice(m.index + m[0].length);
        state = 'done';
      } else if (last) {
        // No module script after all: give the preloads back.
        out = restorePreloads(out + pending);
        pending = '';
        state = 'done';
        return out;
      } else {
        // Keep what could be the start of the module script (an open `<script` without its end).
        const open = pending.lastIndexOf('<script');
        const keepFrom = Math.min(open >= 0 ? open : pending.length, Math.max(0, pending.length - 8));
        out += pending.slice(0, keepFrom);
        pending = pending.slice(keepFrom);
        return out;
      }
    }
    out += pending;
    pending = '';
    return out;
  }

  /** The head already went out without the preloads: add them back before the script (still before hydration). */
  function restorePreloads(s: string): string {
    if (!hrefs.length) return s;
    const links = takePreloadsHtml(removed);
    hrefs = [];
    return links + s;
  }
}

function takePreloadsHtml(head: string): string {
  return [...head.matchAll(PRELOAD)].map((m) => m[0]).join('');
}
