import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { createRequestHandler, type ServerBuild } from 'react-router';
import type { Config } from '../config.ts';

export type WebHandler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * Serves the web app: hashed client assets as static files (long cache), everything else
 * through React Router's server build (SSR). Returns undefined when the build is missing.
 */
export async function mountWeb(app: FastifyInstance, config: Config): Promise<WebHandler | undefined> {
  const serverEntry = path.join(config.webBuildDir, 'server/index.js');
  const clientDir = path.join(config.webBuildDir, 'client');
  if (!fs.existsSync(serverEntry)) {
    app.log.warn(`web build not found at ${serverEntry}: serving the API only (run npm run build)`);
    return undefined;
  }
  await app.register(fastifyStatic, {
    root: clientDir,
    wildcard: false,
    // apps/web's build writes .br and .gz next to each asset (scripts/precompress.mjs).
    preCompressed: true,
    // Cache-Control comes from setHeaders alone (send's own `public, max-age=0` would replace it).
    cacheControl: false,
    setHeaders(res, file) {
      const hashed = /[-.][A-Za-z0-9_-]{8,}\.(js|css|woff2?|png|svg|jpg|webp)(\.br|\.gz)?$/.test(file) && file.includes(`${path.sep}assets${path.sep}`);
      // The service worker is revalidated on every load (a new build must reach clients at once).
      const sw = /[\\/]sw\.js(\.br|\.gz)?$/.test(file);
      res.setHeader('cache-control', sw ? 'no-cache' : hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    },
  });
  const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
  const handle = createRequestHandler(build, process.env.NODE_ENV === 'development' ? 'development' : 'production');

  return async (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return reply.code(405).type('text/plain').send('method not allowed');
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
      else if (v !== undefined) headers.set(k, v);
    }
    const url = `${req.protocol}://${req.headers.host ?? 'localhost'}${req.url}`;
    const controller = new AbortController();
    reply.raw.on('close', () => controller.abort());
    const res = await handle(new Request(url, { method: req.method, headers, signal: controller.signal }), { devMode: config.devMode, nonce: reply.scriptNonce });
    reply.code(res.status);
    for (const [k, v] of res.headers) {
      if (k === 'set-cookie') continue;
      reply.header(k, v);
    }
    const cookies = res.headers.getSetCookie();
    if (cookies.length) reply.header('set-cookie', cookies);
    if (!res.body || req.method === 'HEAD') return reply.send();
    return reply.send(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream));
  };
}
