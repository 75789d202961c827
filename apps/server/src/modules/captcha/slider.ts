import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { issueCaptchaToken } from '../../providers/captcha/local-token.ts';
import { randomToken } from '../../util/crypto.ts';
import { inTx, lockKey, type Q } from '../../db/tx.ts';
import { CAPTCHA_HEIGHT, CAPTCHA_WIDTH, PIECE_SIZE, drawSliderChallenge } from './slider-image.ts';
import { checkPow } from '@cfx/protocol/pow.ts';

const CHALLENGE_TTL_MS = 2 * 60_000;
/** How far (image pixels) the dropped piece may be from the hole. */
export const SLIDER_TOLERANCE_PX = 5;
/** A human drag takes time; a scripted jump does not. */
export const MIN_DRAG_MS = 200;
const MAX_DRAG_MS = 30_000;

export async function createChallenge(ctx: AppContext, ip: string) {
  const now = ctx.now();
  const limit = ctx.config.limits.captchaChallengesPerIp;
  // Per client IP and minute (each challenge costs an image render and a row). A cheap check
  // refuses before rendering; the count is checked again atomically with the insert.
  const recent = (q: Q) =>
    q.selectFrom('captcha_challenges').select((e) => e.fn.countAll<number>().as('n')).where('ip', '=', ip).where('created_at', '>', now - 60_000).executeTakeFirstOrThrow();
  if (Number((await recent(ctx.db.kysely)).n) >= limit) throw new ApiError(Status.RATE_LIMITED, 'captchaTooMany');
  const img = drawSliderChallenge();
  const id = randomToken(18);
  await inTx(ctx, async (trx) => {
    await lockKey(ctx, trx, `captcha:${ip}`);
    if (Number((await recent(trx)).n) >= limit) throw new ApiError(Status.RATE_LIMITED, 'captchaTooMany');
    await trx.insertInto('captcha_challenges').values({ id, ip, answer_x: img.answerX, created_at: now, expires_at: now + CHALLENGE_TTL_MS, used_at: null }).execute();
  });
  return {
    id,
    bg: `data:image/png;base64,${img.bg.toString('base64')}`,
    piece: `data:image/png;base64,${img.piece.toString('base64')}`,
    width: CAPTCHA_WIDTH,
    height: CAPTCHA_HEIGHT,
    pieceSize: PIECE_SIZE,
    pow: { algorithm: 'sha256' as const, bits: ctx.config.limits.captchaPowBits },
  };
}

/**
 * One attempt per challenge: the proof of work is checked first (refused without touching the
 * challenge, so a client that sent none can still send it), then the challenge is consumed
 * (conditional update) and the drop position and the drag trace are checked. Success issues a
 * one-time NECaptchaValidate token.
 */
export async function checkChallenge(ctx: AppContext, input: { id: string; x: number; track: [number, number][]; pow?: string | undefined }) {
  const now = ctx.now();
  if (!checkPow(input.id, input.pow, ctx.config.limits.captchaPowBits)) throw new ApiError(Status.BAD_CAPTCHA, 'captchaPowMissing');
  const row = await ctx.db.kysely.selectFrom('captcha_challenges').select(['answer_x', 'expires_at']).where('id', '=', input.id).executeTakeFirst();
  const consumed = await ctx.db.kysely
    .updateTable('captcha_challenges')
    .set({ used_at: now })
    .where('id', '=', input.id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row || Number(consumed.numUpdatedRows) !== 1) throw new ApiError(Status.BAD_CAPTCHA, 'captchaFailed');
  if (!isHumanDrag(input.x, input.track) || Math.abs(input.x - row.answer_x) > SLIDER_TOLERANCE_PX) {
    throw new ApiError(Status.BAD_CAPTCHA, 'captchaFailed');
  }
  return { NECaptchaValidate: await issueCaptchaToken(ctx.db, now, ctx.config.limits.captchaTokenTtlMs) };
}

export function isHumanDrag(x: number, track: [number, number][]): boolean {
  if (track.length < 3) return false;
  const first = track[0]!, last = track[track.length - 1]!;
  const duration = last[0] - first[0];
  if (duration < MIN_DRAG_MS || duration > MAX_DRAG_MS) return false;
  // The trace must end where the piece was dropped and time must not run backwards.
  if (Math.abs(last[1] - x) > SLIDER_TOLERANCE_PX) return false;
  for (let i = 1; i < track.length; i++) if (track[i]![0] < track[i - 1]![0]) return false;
  return true;
}
