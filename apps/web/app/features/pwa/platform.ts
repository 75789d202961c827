/** Which install instructions fit this browser (the download page's fallback when no prompt is offered). */
export type InstallPlatform = 'standalone' | 'ios' | 'android' | 'desktop' | 'other';

export function installPlatform(ua: string, opts: { standalone: boolean; touchPoints?: number }): InstallPlatform {
  if (opts.standalone) return 'standalone';
  // iPadOS reports a Mac user agent; touch points tell them apart.
  const ios = /iPhone|iPad|iPod/i.test(ua) || (/Macintosh/.test(ua) && (opts.touchPoints ?? 0) > 1);
  if (ios) return 'ios';
  const chromium = /Chrome\/|Chromium\/|Edg\//.test(ua) && !/OPR\/|SamsungBrowser/.test(ua);
  if (/Android/i.test(ua)) return chromium || /SamsungBrowser/.test(ua) ? 'android' : 'other';
  if (chromium) return 'desktop';
  return 'other';
}

export function currentPlatform(): InstallPlatform {
  if (typeof window === 'undefined') return 'other';
  const standalone = window.matchMedia?.('(display-mode: standalone)').matches || (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return installPlatform(navigator.userAgent, { standalone, touchPoints: navigator.maxTouchPoints });
}
