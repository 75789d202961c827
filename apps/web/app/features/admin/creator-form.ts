import type { AdminCreatorDetail } from '@cfx/contract/admin.ts';
import { CREATOR_LIMITS, lineOk, mediaLinkProblem, textOk, type MediaLinkInput, type MediaLinkProblem } from '@cfx/contract/creator-rules.ts';
import type { AdminKey } from './i18n.ts';

/**
 * The console's creator profile form (routes/admin.creators.tsx): its state from a creator, the
 * same checks the server makes (creator-rules.ts; the server decides), and the body of
 * /creators/update with only what changed — an unchanged field is left out, so saving a form
 * nobody touched writes nothing.
 */
export interface CreatorForm {
  name: string;
  intro: string;
  avatar: string;
  banner: string;
  links: MediaLinkInput[];
}

export function creatorFormOf(d: Pick<AdminCreatorDetail, 'name' | 'intro' | 'avatar' | 'banner' | 'mediaLinks'>): CreatorForm {
  return { name: d.name, intro: d.intro, avatar: d.avatar, banner: d.banner, links: d.mediaLinks.map((m) => ({ ...m })) };
}

export interface FormProblem {
  key: AdminKey;
  vars?: Record<string, string | number>;
}

const LINK_KEYS: Record<MediaLinkProblem, AdminKey> = {
  type: 'creators.linkBadType',
  label: 'creators.linkBadLabel',
  url: 'creators.linkBadUrl',
  host: 'creators.linkBadHost',
};

/** The first problem of the form (the message key of the console catalogs), or null. */
export function creatorFormProblem(f: CreatorForm): FormProblem | null {
  if (!lineOk(f.name, CREATOR_LIMITS.nameMax)) return { key: 'creators.badName', vars: { n: CREATOR_LIMITS.nameMax } };
  if (!textOk(f.intro.replace(/\r\n?/g, '\n'), CREATOR_LIMITS.introMax)) return { key: 'creators.badIntro', vars: { n: CREATOR_LIMITS.introMax } };
  if (!f.avatar.trim()) return { key: 'creators.needAvatar' };
  if (!f.banner.trim()) return { key: 'creators.needBanner' };
  if (f.links.length > CREATOR_LIMITS.mediaLinksMax) return { key: 'creators.tooManyLinks', vars: { n: CREATOR_LIMITS.mediaLinksMax } };
  for (let i = 0; i < f.links.length; i++) {
    const p = mediaLinkProblem(f.links[i]!);
    if (p) return { key: LINK_KEYS[p], vars: { i: i + 1, n: CREATOR_LIMITS.labelMax } };
  }
  return null;
}

const linksKey = (links: MediaLinkInput[]) => JSON.stringify(links.map((l) => [l.type, l.label.trim(), l.url.trim()]));

/** The update body: the creator id and the fields that differ from `current` (texts trimmed). */
export function creatorPatch(current: Pick<AdminCreatorDetail, 'id' | 'name' | 'intro' | 'avatar' | 'banner' | 'mediaLinks'>, f: CreatorForm) {
  const patch: { id: number; name?: string; intro?: string; avatar?: string; banner?: string; mediaLinks?: MediaLinkInput[] } = { id: current.id };
  if (f.name.trim() !== current.name) patch.name = f.name.trim();
  const intro = f.intro.replace(/\r\n?/g, '\n').trim();
  if (intro !== current.intro) patch.intro = intro;
  if (f.avatar.trim() !== current.avatar) patch.avatar = f.avatar.trim();
  if (f.banner.trim() !== current.banner) patch.banner = f.banner.trim();
  if (linksKey(f.links) !== linksKey(current.mediaLinks)) patch.mediaLinks = f.links.map((l) => ({ type: l.type, label: l.label.trim(), url: l.url.trim() }));
  return patch;
}

/** Whether a patch changes anything (more than the id). */
export const patchChanges = (p: ReturnType<typeof creatorPatch>) => Object.keys(p).length > 1;
