/* CFX Art service worker (scope /). Registered by app/features/pwa/register.ts after hydration.
 *
 * - install: precaches the app shell of this build (entry, root and layout modules, CSS — the list
 *   scripts/build-sw.mjs writes into BUILD below at build time), the offline page, manifests and
 *   icons, under a cache named after the build version; activate drops older shells.
 * - pages (navigations): network first; a good answer is kept (at most PAGE_MAX) for offline use;
 *   offline, the kept copy or the bilingual offline page.
 * - /assets/* (hashed, immutable): cache first.
 * - API images (generated artwork /official/image/, share posters /official/poster/): network first,
 *   kept for offline pages — only GET answers of requests WITHOUT a token header that the server did
 *   not mark private / no-store. Every other API call (/mvapi/*: JSON, uploads, streams) is not
 *   touched at all: network only, never cached, so no answer with personal data can reach a cache.
 * - anything else of this origin (icons, manifests, favicon): stale while revalidate.
 */
const BUILD = { version: 'dev', precache: [] }; // replaced by scripts/build-sw.mjs

const SHELL = `cfx-shell-${BUILD.version}`;
const PAGES = 'cfx-pages-v1';
const ASSETS = 'cfx-assets-v1';
const API = 'cfx-api-v1';
const KNOWN = [SHELL, PAGES, ASSETS, API];
const OFFLINE = '/offline.html';
const PAGE_MAX = 30;
const API_MAX = 120;
const ASSET_MAX = 400;
const API_IMAGES = ['/mvapi/public/official/image/', '/mvapi/public/official/poster/'];
const STATIC = [OFFLINE, '/manifest.webmanifest', '/manifest.en.webmanifest', '/favicon.svg', '/icons/icon-192.png', '/icons/icon-512.png', '/icons/icon-maskable-512.png', '/icons/apple-touch-icon.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const shell = await caches.open(SHELL);
      await shell.addAll(STATIC);
      // Hashed build files go to the assets cache (shared across versions: their names change with their content).
      const assets = await caches.open(ASSETS);
      await assets.addAll(BUILD.precache);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith('cfx-') && !KNOWN.includes(name)) await caches.delete(name);
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable().catch(() => undefined);
      await self.clients.claim();
    })(),
  );
});

/** Keeps at most `max` entries in a cache (oldest first out). */
async function trim(cache, max) {
  const keys = await cache.keys();
  for (let i = 0; i < keys.length - max; i++) await cache.delete(keys[i]);
}

const privateAnswer = (res) => /private|no-store/i.test(res.headers.get('cache-control') || '');

async function page(event) {
  const cache = await caches.open(PAGES);
  try {
    const res = (await event.preloadResponse) || (await fetch(event.request));
    if (res.ok && res.type === 'basic' && (res.headers.get('content-type') || '').includes('text/html') && !privateAnswer(res)) {
      await cache.put(event.request, res.clone());
      await trim(cache, PAGE_MAX);
    }
    return res;
  } catch (err) {
    const kept = await cache.match(event.request, { ignoreVary: true });
    if (kept) return kept;
    const offline = await caches.match(OFFLINE);
    if (offline) return offline;
    throw err;
  }
}

async function asset(request) {
  const cache = await caches.open(ASSETS);
  const hit = await cache.match(request);
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok && res.type === 'basic') {
    await cache.put(request, res.clone());
    await trim(cache, ASSET_MAX);
  }
  return res;
}

async function api(request) {
  // A request that carries a token is about a user: never kept, never answered from the cache (images never carry one).
  if (request.headers.has('token')) return fetch(request);
  const cache = await caches.open(API);
  try {
    const res = await fetch(request);
    if (res.ok && res.type === 'basic' && !privateAnswer(res)) {
      await cache.put(request, res.clone());
      await trim(cache, API_MAX);
    }
    return res;
  } catch (err) {
    const kept = await cache.match(request);
    if (kept) return kept;
    throw err;
  }
}

async function staleWhileRevalidate(event) {
  const cache = await caches.open(SHELL);
  const hit = await cache.match(event.request, { ignoreSearch: true });
  const fresh = fetch(event.request)
    .then(async (res) => {
      if (res.ok && res.type === 'basic') await cache.put(event.request, res.clone());
      return res;
    })
    .catch(() => undefined);
  if (hit) {
    event.waitUntil(fresh);
    return hit;
  }
  return (await fresh) || Response.error();
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // Server-sent events and downloads of personal files: straight to the network.
  if ((request.headers.get('accept') || '').includes('text/event-stream')) return;
  if (request.mode === 'navigate') return event.respondWith(page(event));
  if (url.pathname.startsWith('/assets/')) return event.respondWith(asset(request));
  if (API_IMAGES.some((p) => url.pathname === p)) return event.respondWith(api(request));
  if (url.pathname === '/sw.js' || url.pathname === '/healthz') return;
  if (STATIC.includes(url.pathname)) return event.respondWith(staleWhileRevalidate(event));
});
