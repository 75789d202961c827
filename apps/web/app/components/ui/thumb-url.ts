/**
 * A thumbnail URL: generated artwork (`…/official/image/?id=…`) takes `w=` (16–2048 px); other
 * images (avatars, external URLs) are returned unchanged.
 */
export function thumbUrl(src: string, width: number): string {
  if (!src || !src.includes('/official/image/')) return src;
  const w = Math.max(16, Math.min(2048, Math.round(width)));
  const [base, hash = ''] = src.split('#', 2) as [string, string?];
  const cleaned = base.replace(/([?&])w=[^&]*(&|$)/, (_m, lead: string, tail: string) => (tail ? lead : '')).replace(/[?&]$/, '');
  return `${cleaned}${cleaned.includes('?') ? '&' : '?'}w=${w}${hash ? `#${hash}` : ''}`;
}

/**
 * The image for link previews (og:image): generated artwork as a 1200-wide PNG (`fmt=png`), since
 * WeChat, Weibo and most link previews do not show SVG; other images unchanged.
 */
export function previewImageUrl(src: string): string {
  if (!src || !src.includes('/official/image/')) return src;
  const url = thumbUrl(src, 1200);
  const [base, hash] = url.split('#', 2) as [string, string?];
  return `${base.replace(/([?&])fmt=[^&]*(&|$)/, (_m, lead: string, tail: string) => (tail ? lead : '')).replace(/[?&]$/, '')}&fmt=png${hash ? `#${hash}` : ''}`;
}
