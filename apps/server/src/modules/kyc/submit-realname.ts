import { sql } from 'kysely';
import { Status } from '@cfx/contract/envelope.ts';
import { LIMITS } from '@cfx/contract/limits.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { inTx, lockKey, type Q } from '../../db/tx.ts';
import { ageAt, maskIdNumber, maskName, parseIdNumber } from './id-number.ts';

const DAY_MS = 24 * 3600_000;
const NAME_RE = /^[\u4e00-\u9fa5·]{2,20}$|^[A-Za-z][A-Za-z .·-]{1,48}[A-Za-z]$/;

/**
 * Real-name verification: local checks first (name form, GB 11643 checksum, birth date, 18+),
 * then the KYC provider's two-factor check. Name and number are stored sealed; a keyed digest of
 * the number lets at most KYC_ACCOUNTS_PER_IDENTITY accounts (default 3) verify with one ID number —
 * they share that identity's purchase limits of the primary sale. Once verified, a user stays verified.
 */
/**
 * Each attempt that reaches the provider (a paid call, and a way to test name/ID pairs) is
 * counted per user; KYC_ATTEMPTS_PER_USER attempts per 24 h, reserved atomically before the call.
 */
async function reserveKycAttempt(ctx: AppContext, userId: number) {
  const now = ctx.now();
  await inTx(ctx, async (trx) => {
    await lockKey(ctx, trx, `kyc:${userId}`);
    const n = await trx.selectFrom('kyc_attempts').select((e) => e.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('created_at', '>', now - DAY_MS).executeTakeFirstOrThrow();
    if (Number(n.n) >= ctx.config.limits.kycAttemptsPerUser) throw new ApiError(Status.RATE_LIMITED, 'kycTooMany', { n: ctx.config.limits.kycAttemptsPerUser });
    await trx.insertInto('kyc_attempts').values({ user_id: userId, created_at: now }).execute();
  });
}

export async function submitRealname(ctx: AppContext, userId: number, input: { name: string; idNumber: string }) {
  const name = input.name.trim();
  const idNumber = input.idNumber.trim().toUpperCase();
  if (!NAME_RE.test(name)) throw new ApiError(Status.INVALID, 'realnameBadName');
  const parsed = parseIdNumber(idNumber);
  if (!parsed) throw new ApiError(Status.INVALID, 'realnameBadId');
  if (ageAt(parsed.birth, ctx.now()) < LIMITS.minimumAge) throw new ApiError(Status.REALNAME_REFUSED, 'realnameUnderage');
  if (await ctx.db.kysely.selectFrom('realname').select('user_id').where('user_id', '=', userId).executeTakeFirst()) {
    throw new ApiError(Status.REALNAME_REFUSED, 'realnameAlready');
  }
  const digest = ctx.secrets.digest(idNumber);
  const perIdentity = ctx.config.limits.kycAccountsPerIdentity;
  if ((await accountsOf(ctx.db.kysely, digest)) >= perIdentity) throw idLimit(perIdentity);
  await reserveKycAttempt(ctx, userId);
  let match: boolean;
  try {
    ({ match } = await ctx.kyc.verify({ name, idNumber }));
  } catch {
    throw new ApiError(Status.SERVER_ERROR, 'kycUnavailable', {}, 503);
  }
  if (!match) throw new ApiError(Status.REALNAME_REFUSED, 'realnameMismatch');
  const { y, m, d } = parsed.birth;
  try {
    await ctx.db.kysely.transaction().execute(async (trx) => {
      // Race-free cap of accounts per ID number: on PostgreSQL the transactions of one number run
      // one at a time (advisory lock); on SQLite the conditional INSERT … SELECT is one atomic statement.
      await lockKey(ctx, trx, `realname-id:${digest}`);
      const inserted = await trx
        .insertInto('realname')
        .columns(['user_id', 'name_sealed', 'id_sealed', 'id_digest', 'id_masked', 'name_masked', 'birth_sealed', 'adult', 'provider', 'verified_at'])
        .expression(
          // Typed literals: PostgreSQL would read untyped parameters of a SELECT list as text.
          trx
            .selectNoFrom([
              sql<number>`cast(${userId} as bigint)`.as('user_id'),
              sql<string>`cast(${ctx.secrets.seal(name)} as text)`.as('name_sealed'),
              sql<string>`cast(${ctx.secrets.seal(idNumber)} as text)`.as('id_sealed'),
              sql<string>`cast(${digest} as varchar(64))`.as('id_digest'),
              sql<string>`cast(${maskIdNumber(idNumber)} as varchar(32))`.as('id_masked'),
              sql<string>`cast(${maskName(name)} as varchar(64))`.as('name_masked'),
              sql<string>`cast(${ctx.secrets.seal(`${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`)} as text)`.as('birth_sealed'),
              sql<number>`cast(1 as integer)`.as('adult'),
              sql<string>`cast(${ctx.kyc.name} as varchar(16))`.as('provider'),
              sql<number>`cast(${ctx.now()} as bigint)`.as('verified_at'),
            ])
            .where(sql<boolean>`(select count(*) from realname where id_digest = ${digest}) < ${perIdentity}`),
        )
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) throw idLimit(perIdentity);
      await trx.updateTable('users').set({ is_realname: 1 }).where('id', '=', userId).execute();
    });
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505') {
      throw new ApiError(Status.REALNAME_REFUSED, 'realnameAlready');
    }
    throw err;
  }
}

/** Accounts verified with this ID number (its keyed digest). */
async function accountsOf(q: Q, digest: string): Promise<number> {
  const r = await q.selectFrom('realname').select((e) => e.fn.countAll<number>().as('n')).where('id_digest', '=', digest).executeTakeFirstOrThrow();
  return Number(r.n);
}

const idLimit = (n: number) => new ApiError(Status.REALNAME_REFUSED, 'realnameIdLimit', { n });

export async function getRealnameInfo(ctx: AppContext, userId: number) {
  const row = await ctx.db.kysely.selectFrom('realname').select(['name_masked', 'id_masked', 'verified_at']).where('user_id', '=', userId).executeTakeFirst();
  if (!row) return { isRealname: '0' as const, name: '', idNumber: '', verifiedAt: null };
  return { isRealname: '1' as const, name: row.name_masked, idNumber: row.id_masked, verifiedAt: Number(row.verified_at) };
}
