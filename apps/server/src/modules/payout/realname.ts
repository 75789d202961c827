import { Status } from '@cfx/contract/envelope.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';

export interface Realname {
  name: string;
  idNumber: string;
  nameMasked: string;
  idMasked: string;
}

/**
 * The user's verified real name, opened from its sealed form (never logged, never sent back in clear).
 * Payout accounts and bank cards belong to this person only.
 */
export async function findRealname(ctx: AppContext, userId: number): Promise<Realname | undefined> {
  const row = await ctx.db.kysely.selectFrom('realname').select(['name_sealed', 'id_sealed', 'name_masked', 'id_masked']).where('user_id', '=', userId).executeTakeFirst();
  if (!row) return undefined;
  try {
    return { name: ctx.secrets.open(row.name_sealed), idNumber: ctx.secrets.open(row.id_sealed), nameMasked: row.name_masked, idMasked: row.id_masked };
  } catch {
    // A record that cannot be opened (seeded demo traders) verifies no card holder.
    return undefined;
  }
}

export async function requireRealname(ctx: AppContext, userId: number): Promise<Realname> {
  const r = await findRealname(ctx, userId);
  if (!r) throw new ApiError(Status.PAYOUT_STATE, 'payoutNeedRealname');
  return r;
}

/** The holder typed on the form is the verified person: the same name (spaces ignored) and ID number (case of the X ignored). */
export function sameHolder(r: Realname, name: string, idNumber: string): boolean {
  const norm = (s: string) => s.replace(/\s+/g, '');
  return norm(name) === norm(r.name) && idNumber.trim().toUpperCase() === r.idNumber.toUpperCase();
}
