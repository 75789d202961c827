import { launchBrowser } from './lib.ts';
const base = process.env.BASE ?? 'http://127.0.0.1:3100';
const pages = (process.env.PAGES ?? '/,/projects,/projects/detail/2,/projects/dropping/6,/projects/dropping/2,/assets/745,/news,/news/1,/creator/1925153901,/search-object?str=水墨,/download').split(',');
const browser = await launchBrowser();
const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: Number(process.env.SCALE ?? 1) });
if (process.env.LANG_EN) await ctx.addCookies([{ name: 'lang', value: 'en', url: base }]);
for (const p of pages) {
  const page = await ctx.newPage();
  const errors: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text().slice(0, 300)}`); });
  page.on('pageerror', (e) => errors.push('pageerror: ' + e.message.slice(0, 300)));
  const res = await page.goto(base + p, { waitUntil: 'networkidle' });
  await page.waitForTimeout(800);
  const name = p.replace(/[^a-z0-9]+/gi, '_') || 'home';
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: process.env.FULL === '1' });
  console.log(p, res?.status(), errors.length ? '\n  ' + errors.join('\n  ') : 'ok');
  await page.close();
}
await browser.close();
