import { CREATOR_LIMITS, lineOk, MEDIA_LINK_MESSAGES, mediaLinkProblem, normaliseMediaLink, textOk } from '@cfx/contract/creator-rules.ts';
import { Status } from '@cfx/contract/envelope.ts';
import type { CreatorsTable } from '../../db/schema.ts';
import { ApiError } from '../../http/envelope.ts';

export interface CreatorTextEdit {
  name?: string | null;
  intro?: string | null;
  mediaLinks?: { type: string; label: string; url: string }[] | null;
}

/**
 * Checks the text part of a creator profile edit by the creator rules, for the creator's own edit and
 * the console's alike: name 1–40 characters on one line, intro ≤ 500, ≤ 8 media links on their
 * platforms' https hosts (1001 with the link's position). Absent or null fields stay unchanged.
 * Answers the columns to set.
 */
export function checkCreatorText(input: CreatorTextEdit): Partial<Pick<CreatorsTable, 'name' | 'intro' | 'media_links'>> {
  const set: Partial<Pick<CreatorsTable, 'name' | 'intro' | 'media_links'>> = {};
  if (input.name !== undefined && input.name !== null) {
    if (!lineOk(input.name, CREATOR_LIMITS.nameMax)) throw new ApiError(Status.INVALID, 'creatorBadName', { n: CREATOR_LIMITS.nameMax });
    set.name = input.name.trim();
  }
  if (input.intro !== undefined && input.intro !== null) {
    const intro = input.intro.replace(/\r\n?/g, '\n');
    if (!textOk(intro, CREATOR_LIMITS.introMax)) throw new ApiError(Status.INVALID, 'creatorBadIntro', { n: CREATOR_LIMITS.introMax });
    set.intro = intro.trim();
  }
  if (input.mediaLinks !== undefined && input.mediaLinks !== null) {
    if (input.mediaLinks.length > CREATOR_LIMITS.mediaLinksMax) throw new ApiError(Status.INVALID, 'creatorTooManyLinks', { n: CREATOR_LIMITS.mediaLinksMax });
    input.mediaLinks.forEach((link, i) => {
      const problem = mediaLinkProblem(link);
      if (problem) throw new ApiError(Status.INVALID, MEDIA_LINK_MESSAGES[problem], { i: i + 1, n: CREATOR_LIMITS.labelMax });
    });
    set.media_links = JSON.stringify(input.mediaLinks.map(normaliseMediaLink));
  }
  return set;
}
