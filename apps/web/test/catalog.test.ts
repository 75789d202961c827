import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatCnDate, formatCnDateTime } from '../app/components/ui/cn-time.ts';
import { cutText, decodeEntities, htmlToText } from '../app/components/ui/html-text.ts';
import { previewImageUrl, thumbUrl } from '../app/components/ui/thumb-url.ts';
import { pageWindow } from '../app/components/ui/pager.tsx';
import { qrPath } from '../app/components/ui/qr-code.tsx';
import { countdownTarget, livePhase, liveStatus, type SaleTimes } from '../app/features/catalog/countdown.ts';
import { soldPercent } from '../app/components/ui/sale-progress.tsx';
import { en } from '../app/i18n/en.ts';
import { zh } from '../app/i18n/zh.ts';
import { priceStats, toSeries, CST_OFFSET_S } from '../app/features/catalog/price-series.ts';
import { apiOrigin, optional, pageParam, required, requestLang, serverApi } from '../app/features/catalog/api/server-api.server.ts';
import { highlightParts, suggestionHref } from '../app/features/search/highlight.ts';
import { parseTab, pickTab } from '../app/features/search-results/tabs.ts';

describe('countdown', () => {
  const release = (o: Partial<SaleTimes> = {}): SaleTimes => ({ status: 'upcoming', saleStartAt: 10_000, saleEndAt: 20_000, remaining: 5, ...o });
  it('moves the status on with the clock; sold out and ended are final', () => {
    expect(liveStatus(release(), 9_999)).toBe('upcoming');
    expect(liveStatus(release(), 10_000)).toBe('on_sale');
    expect(liveStatus(release({ status: 'on_sale' }), 20_000)).toBe('ended');
    expect(liveStatus(release({ remaining: 0 }), 15_000)).toBe('sold_out');
    expect(liveStatus(release({ saleEndAt: null, status: 'on_sale' }), 1e12)).toBe('on_sale');
    expect(liveStatus(release({ status: 'sold_out' }), 0)).toBe('sold_out');
    expect(liveStatus(release({ status: 'ended' }), 0)).toBe('ended');
  });
  it('counts down to the start while upcoming, to the end while on sale, else nothing', () => {
    expect(countdownTarget(release(), 5_000)).toEqual({ kind: 'start', at: 10_000 });
    expect(countdownTarget(release(), 12_000)).toEqual({ kind: 'end', at: 20_000 });
    expect(countdownTarget(release({ saleEndAt: null }), 12_000)).toBeNull();
    expect(countdownTarget(release(), 25_000)).toBeNull();
  });
  it('names the sale phase open now: sign-up, awaiting the draw, the winners\' sale; null in the public phase and without phases', () => {
    const phases = [
      { kind: 'whitelist' as const, startAt: 10_000, endAt: 20_000 },
      { kind: 'lottery_signup' as const, startAt: 20_000, endAt: 30_000 },
      { kind: 'lottery_rights' as const, startAt: 30_000, endAt: null },
      { kind: 'public' as const, startAt: 40_000, endAt: null },
    ];
    expect(livePhase(phases, 9_999)).toBeNull();
    expect(livePhase(phases, 10_000)).toBe('whitelist');
    expect(livePhase(phases, 20_000)).toBe('lottery_signup');
    expect(livePhase(phases, 29_999)).toBe('lottery_signup');
    expect(livePhase(phases, 30_000)).toBe('lottery_pending'); // signed up, not drawn yet
    const drawn = phases.map((p) => (p.kind === 'lottery_rights' ? { ...p, endAt: 36_000 } : p));
    expect(livePhase(drawn, 31_000)).toBe('lottery_rights');
    expect(livePhase(drawn, 37_000)).toBeNull(); // between the rights and the public phase
    expect(livePhase(drawn, 40_000)).toBeNull(); // public: 发售中
    expect(livePhase([], 20_000)).toBeNull();
    expect(livePhase(undefined, 20_000)).toBeNull();
    // every phase a badge can name has its text in both catalogs
    for (const k of ['whitelist', 'claim', 'lottery_signup', 'lottery_pending', 'lottery_rights'] as const) {
      expect(zh.catalog.phase[k]).toBeTruthy();
      expect(en.catalog.phase[k]).toBeTruthy();
    }
    expect(zh.catalog.phase.lottery_signup).toBe('抽签报名中');
  });
  it('sold share in whole percent', () => {
    expect(soldPercent(164, 274)).toBe(59);
    expect(soldPercent(0, 0)).toBe(0);
    expect(soldPercent(10, 10)).toBe(100);
  });
});

describe('dates in Beijing time (yyyy-MM-dd HH:mm:ss)', () => {
  it('prints UTC+8 whatever the machine zone, so server and browser agree', () => {
    expect(formatCnDateTime(Date.UTC(2026, 10, 21, 16, 5, 9))).toBe('2026-11-22 00:05:09');
    expect(formatCnDateTime(Date.UTC(2026, 10, 21, 16, 5, 9), false)).toBe('2026-11-22 00:05');
    expect(formatCnDate(Date.UTC(2026, 0, 1, 15, 59, 59))).toBe('2026-01-01');
    expect(formatCnDate(Date.UTC(2026, 0, 1, 16, 0, 0))).toBe('2026-01-02');
  });
  it('empty for a missing time', () => {
    expect(formatCnDateTime(null)).toBe('');
    expect(formatCnDateTime(0)).toBe('');
    expect(formatCnDate(undefined)).toBe('');
  });
});

describe('html text (meta descriptions)', () => {
  it('drops tags and scripts, decodes entities, collapses spaces', () => {
    expect(htmlToText('<p>十二生肖&amp;山水</p>\n<h3>发售</h3><script>alert(1)</script><ul><li>a &lt; b</li></ul>')).toBe('十二生肖&山水 发售 a < b');
    expect(decodeEntities('&#x4e2d;&#25991; &quot;x&quot; &unknown;')).toBe('中文 "x" &unknown;');
  });
  it('cuts to a number of characters with …', () => {
    expect(cutText('一二三四五', 5)).toBe('一二三四五');
    expect(cutText('一二三四五六', 5)).toBe('一二三四…');
    expect(htmlToText('<p>一二三四五六</p>', 4)).toBe('一二三…');
  });
});

describe('thumbnails', () => {
  it('adds (or replaces) w= on generated artwork only, clamped to 16–2048', () => {
    expect(thumbUrl('/mvapi/public/official/image/?id=g-0-1-2-3', 576)).toBe('/mvapi/public/official/image/?id=g-0-1-2-3&w=576');
    expect(thumbUrl('/mvapi/public/official/image/?id=g-0-1&w=100', 200)).toBe('/mvapi/public/official/image/?id=g-0-1&w=200');
    expect(thumbUrl('/mvapi/public/official/image/?w=100&id=g-0-1', 4000)).toBe('/mvapi/public/official/image/?id=g-0-1&w=2048');
    expect(thumbUrl('/mvapi/public/official/image/?id=c-1-2', 2)).toBe('/mvapi/public/official/image/?id=c-1-2&w=16');
    expect(thumbUrl('/media/avatars/4.svg', 80)).toBe('/media/avatars/4.svg');
    expect(thumbUrl('', 80)).toBe('');
  });

  it('link previews get generated artwork as a 1200-wide PNG, other images unchanged', () => {
    expect(previewImageUrl('/mvapi/public/official/image/?id=g-0-1-2-3')).toBe('/mvapi/public/official/image/?id=g-0-1-2-3&w=1200&fmt=png');
    expect(previewImageUrl('/mvapi/public/official/image/?id=n-1&w=300&fmt=svg')).toBe('/mvapi/public/official/image/?id=n-1&w=1200&fmt=png');
    expect(previewImageUrl('/media/avatars/4.svg')).toBe('/media/avatars/4.svg');
    expect(previewImageUrl('')).toBe('');
  });
});

describe('pager window', () => {
  it('first, last and two around the current page; 0 marks a gap', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 14)).toEqual([1, 2, 3, 0, 14]);
    expect(pageWindow(7, 14)).toEqual([1, 0, 5, 6, 7, 8, 9, 0, 14]);
    expect(pageWindow(14, 14)).toEqual([1, 0, 12, 13, 14]);
    expect(pageWindow(3, 5)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('QR code', () => {
  it('draws dark modules as runs inside a quiet zone', () => {
    const { size, d } = qrPath('https://cfxart.example/download');
    expect(size).toBeGreaterThanOrEqual(25); // version ≥ 2 plus the 2-module border on each side
    expect(d.startsWith('M2 2h7v1h-7z')).toBe(true); // the top-left finder pattern's first row
    expect(qrPath('same')).toEqual(qrPath('same'));
  });
});

describe('price history series', () => {
  it('sorts, keeps the last price of a second, shifts to Beijing time', () => {
    const pts = [
      { at: 3_000_500, priceFen: 300 },
      { at: 1_000_000, priceFen: 100 },
      { at: 3_000_100, priceFen: 250 },
    ];
    expect(toSeries(pts)).toEqual([
      { time: 1000 + CST_OFFSET_S, value: 100 },
      { time: 3000 + CST_OFFSET_S, value: 300 },
    ]);
    expect(priceStats(pts)).toEqual({ high: 300, low: 100, last: 300 });
    expect(priceStats([])).toBeNull();
  });
});

describe('search', () => {
  it('splits the <em> highlight into text parts, unescaping the rest', () => {
    expect(highlightParts('星野·像素<em>猫</em>咖')).toEqual([
      { text: '星野·像素', em: false },
      { text: '猫', em: true },
      { text: '咖', em: false },
    ]);
    expect(highlightParts('<em>A&amp;B</em> &lt;x&gt;')).toEqual([
      { text: 'A&B', em: true },
      { text: ' <x>', em: false },
    ]);
  });
  it('suggestions lead to the release, the collectible or the creator', () => {
    expect(suggestionHref({ type: '0', id: 6 })).toBe('/projects/detail/6');
    expect(suggestionHref({ type: '1', id: 344 })).toBe('/assets/344');
    expect(suggestionHref({ type: '2', id: 1 })).toBe('/creator/1');
  });
  it('picks the chosen tab, else the first with results', () => {
    expect(parseTab('goods')).toBe('goods');
    expect(parseTab('x')).toBeNull();
    expect(pickTab(null, { projects: 0, goods: 3, creators: 1 })).toBe('goods');
    expect(pickTab(null, { projects: 0, goods: 0, creators: 0 })).toBe('projects');
    expect(pickTab('creators', { projects: 5, goods: 0, creators: 0 })).toBe('creators');
  });
});

describe('loader API client (server side)', () => {
  afterEach(() => vi.unstubAllGlobals());
  const req = (url = 'http://public.example/assets/1', cookie?: string) => new Request(url, { headers: cookie ? { cookie } : {} });

  it('calls the server itself, never the Host the browser sent', () => {
    expect(apiOrigin(req(), { PORT: '3100' })).toBe('http://127.0.0.1:3100');
    expect(apiOrigin(req(), { PORT: '3100', HOST: '0.0.0.0' })).toBe('http://127.0.0.1:3100');
    expect(apiOrigin(req(), { PORT: '80', HOST: '10.0.0.5' })).toBe('http://10.0.0.5:80');
    expect(apiOrigin(req(), { PORT: '80', HOST: '::1' })).toBe('http://[::1]:80');
    expect(apiOrigin(req(), { PORT: '1', INTERNAL_API_ORIGIN: 'http://api.internal:9000/' })).toBe('http://api.internal:9000');
    expect(apiOrigin(req('http://localhost:5173/x'), {})).toBe('http://localhost:5173'); // vite dev: its /mvapi proxy
  });

  it('forwards the page language (header and cookie), sends no token, parses the envelope', async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) =>
      new Response(JSON.stringify({ status: '000000', code: '000000', data: { id: 1 }, message: 'ok', msg: 'ok' })),
    );
    vi.stubGlobal('fetch', fetch);
    vi.stubEnv('PORT', '4567');
    vi.stubEnv('HOST', '');
    vi.stubEnv('INTERNAL_API_ORIGIN', '');
    const call = serverApi(req('http://x/assets/1', 'a=1; lang=en'));
    const r = await call<{ id: number }>('/goods/v1/details/', undefined, { method: 'GET', query: { id: 7, skip: undefined } });
    expect(r).toMatchObject({ ok: true, data: { id: 1 } });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('http://127.0.0.1:4567/mvapi/public/goods/v1/details/?id=7');
    const headers = init!.headers as Record<string, string>;
    expect(headers).toMatchObject({ channel: 'pc', lang: 'en', cookie: 'lang=en' });
    expect(headers.token).toBeUndefined();
    vi.unstubAllEnvs();
  });

  it('maps results: unknown/malformed ids → 404, network → 503, other failures → 502', async () => {
    const thrown = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return (e as { init?: { status?: number } }).init?.status;
      }
      return 'no throw';
    };
    expect(required({ ok: true, data: { a: 1 }, status: '000000', code: '000000', message: '' })).toEqual({ a: 1 });
    expect(thrown(() => required({ ok: false, data: null, status: '1404', code: '1404', message: '' }))).toBe(404);
    expect(thrown(() => required({ ok: false, data: null, status: '1001', code: '1001', message: '' }))).toBe(404);
    expect(thrown(() => required({ ok: false, data: null, status: '', code: '', message: '', networkError: true }))).toBe(503);
    expect(thrown(() => required({ ok: false, data: null, status: '9999', code: '9999', message: '' }))).toBe(502);
    expect(optional({ ok: false, data: null, status: '9999', code: '9999', message: '' })).toBeNull();
  });

  it('page numbers and language of the request', () => {
    expect(pageParam(new URL('http://x/?page=3'))).toBe(3);
    expect(pageParam(new URL('http://x/?page=-1'))).toBe(1);
    expect(pageParam(new URL('http://x/?page=abc'))).toBe(1);
    expect(requestLang(req('http://x/', 'lang=en'))).toBe('en');
    expect(requestLang(req('http://x/', 'lang=fr'))).toBe('zh');
  });
});
