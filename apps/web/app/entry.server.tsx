import fs from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { AppLoadContext, EntryContext } from 'react-router';
import { createReadableStreamFromReadable } from '@react-router/node';
import { ServerRouter } from 'react-router';
import { isbot } from 'isbot';
import type { RenderToPipeableStreamOptions } from 'react-dom/server';
import { renderToPipeableStream } from 'react-dom/server';
import { appCssHref, InlineCssContext } from './lib/inline-css.tsx';
import { deferScriptsStream } from './lib/defer-scripts.server.ts';

/**
 * The built stylesheet's text for inlining (lib/inline-css.tsx), read once: this file is bundled into
 * build/server/index.js or build/server/assets/*.js and the CSS is build/client/assets/app-<hash>.css.
 * Undefined under the Vite dev server (no built file) or if it could break out of a `<style>`
 * element: pages then link it.
 */
let inlineCss: string | undefined | null = null;
function readInlineCss(): string | undefined {
  if (inlineCss !== null) return inlineCss;
  inlineCss = undefined;
  if (!appCssHref.startsWith('/assets/')) return inlineCss;
  for (const rel of ['../client', '../../client']) {
    try {
      const css = fs.readFileSync(fileURLToPath(new URL(`${rel}${appCssHref}`, import.meta.url)), 'utf8');
      if (!/<\/style/i.test(css)) inlineCss = css;
      break;
    } catch {
      /* not here: try the next place */
    }
  }
  return inlineCss;
}

/** Rejected boundaries get this long to flush before the render is aborted. */
export const streamTimeout = 5_000;

/**
 * Server entry: streams the document with renderToPipeableStream. Bots (and SPA-mode builds)
 * wait for all content so crawlers get complete HTML; browsers get the shell as soon as it is ready.
 * The HTML depends on the `lang` cookie, hence `Vary: Cookie`.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The server's per-response CSP nonce: every inline script React Router writes carries it.
  const nonce = typeof loadContext?.nonce === 'string' ? loadContext.nonce : undefined;
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get('user-agent');
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady';

    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const app = (
      <InlineCssContext value={readInlineCss()}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </InlineCssContext>
    );
    const { pipe, abort } = renderToPipeableStream(app, {
      nonce,
      [readyOption]() {
        shellRendered = true;
        const body = new PassThrough({
          final(callback) {
            clearTimeout(timeoutId);
            timeoutId = undefined;
            callback();
          },
        });
        const stream = createReadableStreamFromReadable(body);
        responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
        responseHeaders.append('Vary', 'Cookie');
        // The page's scripts start after the first paint (lib/defer-scripts.server.ts).
        const defer = deferScriptsStream();
        defer.pipe(body);
        pipe(defer);
        resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) console.error(error);
      },
    });
  });
}
