import type { FastifyRequest } from 'fastify';

/** Who made a request, as the session list and the security log keep it. */
export interface ClientMeta {
  ip: string;
  /** The User-Agent header, truncated to 300 characters ('' when absent). */
  userAgent: string;
}

export function clientMeta(req: FastifyRequest): ClientMeta {
  const h = req.headers['user-agent'];
  const ua = (Array.isArray(h) ? h[0] : h) ?? '';
  return { ip: req.ip, userAgent: ua.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 300) };
}

/** An IP for display: `203.0.*.*` (IPv4, also IPv4-mapped IPv6), `2001:db8:*` (IPv6); '' when unknown. */
export function maskIp(ip: string | null | undefined): string {
  if (!ip) return '';
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/i.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.*.*`;
  if (ip.includes(':')) {
    const groups = ip.split(':').filter(Boolean);
    return `${groups.slice(0, 2).join(':')}:*`;
  }
  return '*';
}

const BROWSERS: [RegExp, string][] = [
  [/MicroMessenger\/(\d+)/, 'WeChat'],
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/(?:Chrome|CriOS)\/(\d+)/, 'Chrome'],
  [/(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Windows NT/, 'Windows'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/HarmonyOS/, 'HarmonyOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/**
 * A short device description from a user agent: "Chrome 126 · Windows". Unknown parts are left
 * out; an agent nothing matches is cut to 40 characters; '' when there is none.
 */
export function deviceSummary(ua: string | null | undefined): string {
  if (!ua) return '';
  const headless = /HeadlessChrome\/(\d+)/.exec(ua);
  let browser = headless ? `Chrome ${headless[1]}` : '';
  if (!browser) {
    for (const [re, name] of BROWSERS) {
      const m = re.exec(ua);
      if (m) {
        browser = `${name} ${m[1]}`;
        break;
      }
    }
  }
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1] ?? '';
  const parts = [browser, system].filter(Boolean);
  return parts.length ? parts.join(' · ') : ua.slice(0, 40);
}
