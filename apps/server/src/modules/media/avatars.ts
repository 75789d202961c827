import type { FastifyInstance } from 'fastify';

const PALETTE = [
  ['#1f3b73', '#f2b134'], ['#6b2d5c', '#f0a6ca'], ['#0f5257', '#9ee493'], ['#3d2c8d', '#c996cc'],
  ['#7a3e00', '#ffd166'], ['#14213d', '#fca311'], ['#2b2d42', '#8d99ae'], ['#5f0f40', '#fb8b24'],
  ['#003049', '#eae2b7'], ['#264653', '#e9c46a'], ['#3a0ca3', '#4cc9f0'], ['#40916c', '#d8f3dc'],
];

/** Avatar n (1-12) as an SVG drawn by code: a gradient disc with a simple abstract face. */
export function avatarSvg(n: number): string {
  const [bg, fg] = PALETTE[(n - 1) % PALETTE.length]!;
  const eye = 6 + (n % 3) * 2;
  const mouth = n % 2 ? 'M36 66 Q50 78 64 66' : 'M38 68 L62 68';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${bg}"/><stop offset="1" stop-color="${fg}"/></linearGradient></defs>
<rect width="100" height="100" rx="50" fill="url(#g)"/>
<circle cx="36" cy="42" r="${eye}" fill="#fff" opacity=".9"/><circle cx="64" cy="42" r="${eye}" fill="#fff" opacity=".9"/>
<path d="${mouth}" stroke="#fff" stroke-width="5" fill="none" stroke-linecap="round"/></svg>`;
}

export function mediaRoutes(app: FastifyInstance) {
  app.get<{ Params: { n: string } }>('/media/avatars/:n', async (req, reply) => {
    const m = /^(\d{1,2})\.svg$/.exec(req.params.n);
    const n = m ? Number(m[1]) : 0;
    if (n < 1 || n > PALETTE.length) return reply.code(404).type('text/plain').send('not found');
    return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400, immutable').send(avatarSvg(n));
  });
}
