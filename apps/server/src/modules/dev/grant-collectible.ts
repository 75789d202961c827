import { sql } from 'kysely';
import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { nextFreeTokenId } from '../drops/index.ts';

/**
 * Dev chain only: gives the caller a new collectible of an existing release (next free token id),
 * `pending` on chain; the mint job then mints it to the caller's linked wallet like any other
 * collectible. Lets a newcomer and the browser tests try selling without a primary sale.
 */
export async function grantCollectible(ctx: AppContext, userId: number, projectId?: number) {
  return ctx.db.kysely.transaction().execute(async (trx) => {
    if (ctx.db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext('token-ranges'))`.execute(trx);
    const project = await trx
      .selectFrom('projects')
      .select(['id', 'name'])
      .$if(projectId !== undefined, (q) => q.where('id', '=', projectId!))
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!project) throw new ApiError(Status.NOT_FOUND, 'notFound', {}, 404);
    const sample = await trx.selectFrom('goods').select(['image', 'attributes']).where('project_id', '=', project.id).orderBy('id').limit(1).executeTakeFirst();
    // After every token in use and every release's token range (a drop mints inside its range later).
    const maxToken = { m: await nextFreeTokenId(trx) };
    const maxSerial = await trx.selectFrom('goods').select((e) => e.fn.max<number>('serial').as('m')).where('project_id', '=', project.id).executeTakeFirstOrThrow();
    const tokenId = Math.max(Number(maxToken.m ?? 0), 1_000_000) + 1;
    const serial = Number(maxSerial.m ?? 0) + 1;
    const now = ctx.now();
    const row = await trx
      .insertInto('goods')
      .values({
        project_id: project.id,
        serial,
        token_id: tokenId,
        contract: ctx.chain?.collectible ?? null,
        chain_status: 'pending',
        mint_tx_hash: null,
        minted_at: null,
        owner_user_id: userId,
        name: `${project.name} #${String(serial).padStart(4, '0')}`,
        image: sample?.image ?? '',
        attributes: sample?.attributes ?? '[]',
        status: 'held',
        sale_price_fen: null,
        listed_at: null,
        last_price_fen: null,
        acquired_at: now,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { goodsId: Number(row.id), tokenId: String(tokenId) };
  });
}
