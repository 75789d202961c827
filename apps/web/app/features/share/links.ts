import { PosterPaths } from '@cfx/contract/routes.ts';
import { API_BASE } from '../../lib/api.ts';

/** What can be shared with a poster: a collectible (/assets/{id}) or a release (/projects/detail/{id}). */
export interface ShareTarget {
  type: 'goods' | 'project';
  id: number;
  name: string;
}

/** An invite code as the links carry it (upper case, at most 8 letters and digits), or '' when unusable. */
export const cleanInviteCode = (code: string | null | undefined) => {
  const c = (code ?? '').trim().toUpperCase();
  return /^[A-Z0-9]{4,8}$/.test(c) ? c : '';
};

export const pagePath = (t: Pick<ShareTarget, 'type' | 'id'>) => (t.type === 'goods' ? `/assets/${t.id}` : `/projects/detail/${t.id}`);

/** The page's link to send, with the sharer's invite code (the register view opens with it for visitors). */
export function shareLink(origin: string, t: Pick<ShareTarget, 'type' | 'id'>, inviteCode?: string): string {
  const code = cleanInviteCode(inviteCode);
  return `${origin}${pagePath(t)}${code ? `?inviteCode=${encodeURIComponent(code)}` : ''}`;
}

/** The server-rendered poster (PNG) of the target in `lang`, with the invite code in its QR link. */
export function posterUrl(t: Pick<ShareTarget, 'type' | 'id'>, lang: 'zh' | 'en', inviteCode?: string): string {
  const q = new URLSearchParams({ type: t.type, id: String(t.id), lang });
  const code = cleanInviteCode(inviteCode);
  if (code) q.set('inviteCode', code);
  return `${API_BASE}${PosterPaths.poster}?${q.toString()}`;
}

/** My invite link: the home page opens the register view with the code filled in. */
export const inviteLink = (origin: string, code: string) => `${origin}/?inviteCode=${encodeURIComponent(code)}`;
