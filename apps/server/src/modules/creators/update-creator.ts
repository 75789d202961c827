import type { UpdateCreatorBody } from '@cfx/contract/creators.ts';
import type { AppContext } from '../../context.ts';
import type { CreatorsTable } from '../../db/schema.ts';
import { invalidateProjectInfo } from '../catalog/index.ts';
import { queryCreator } from '../catalog/index.ts';
import { invalidateSearchIndex } from '../search/index.ts';
import { checkCreatorText } from './check-creator-text.ts';
import { ownedImages } from './owned-images.ts';
import { requireOwnCreator } from './own-creator.ts';

/**
 * /api/creator/v1/update: the signed-in creator edits their own profile (only their own: the
 * creator is the caller's, no id is taken). Each field is optional (omitted or null = unchanged):
 * - name: 1–40 characters on one line (1001 creatorBadName);
 * - intro: plain text, at most 500 characters, newlines allowed (1001 creatorBadIntro); the page
 *   renders it as text, never as HTML;
 * - avatarKey / bannerKey: one of the creator's own public image uploads (1012 uploadNotYours);
 *   stored as its URL;
 * - mediaLinks: the whole list, at most 8, each {type, label, url} by creator-rules.ts
 *   mediaLinkProblem: a known platform type, a 1–20 character label and an https URL on that
 *   platform's hosts (any public https host for `website`) — 1001 with the link's position.
 * Answers the creator's page data (as /api/creator/v1/query).
 */
export async function updateCreator(ctx: AppContext, userId: number, input: UpdateCreatorBody) {
  const creator = await requireOwnCreator(ctx, userId);
  const set: Partial<Pick<CreatorsTable, 'name' | 'intro' | 'avatar' | 'banner' | 'media_links'>> = checkCreatorText(input);
  const imageKeys = [input.avatarKey, input.bannerKey].filter((k): k is string => typeof k === 'string');
  if (imageKeys.length) await ownedImages(ctx, userId, imageKeys.map((k) => k.trim()));
  if (typeof input.avatarKey === 'string') set.avatar = ctx.storage.url(input.avatarKey.trim());
  if (typeof input.bannerKey === 'string') set.banner = ctx.storage.url(input.bannerKey.trim());

  if (Object.keys(set).length) await ctx.db.kysely.updateTable('creators').set(set).where('id', '=', creator.id).execute();
  // Release cards and collectible pages carry the creator's name and avatar from the in-memory
  // release map, search matches the name: this process sees the change at once (others within
  // their refresh intervals).
  if (set.name !== undefined || set.avatar !== undefined) invalidateProjectInfo(ctx);
  if (set.name !== undefined) invalidateSearchIndex(ctx);
  return queryCreator(ctx, { id: creator.id }, userId);
}
