import { Status } from '@cfx/contract/envelope.ts';
import { MERCHANT_CATEGORIES } from '@cfx/contract/payouts.ts';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/envelope.ts';
import { isUniqueViolation } from '../../db/tx.ts';
import { findRegion } from './area-tree.ts';
import { requireRealname } from './realname.ts';

/**
 * A creator's merchant details (createSecondMerchant / getSecondMerchantDetail / updateSecondMerchant)
 * and split relation (splitAccountRelationBind / get). The merchant is the creator's payout account
 * (the same sub-merchant number) with the details a buyer-facing merchant shows: short name, customer
 * service phone, category and address; the legal name is the verified real name. The split relation
 * records that the creator's primary-sale income (the order total minus PRIMARY_COMMISSION_PERMILLE)
 * belongs to that merchant: the income is credited to the creator's balance in our ledger at
 * completion (docs/drops.md) and reaches the card by withdrawal from this account. No per-order split
 * call is made at the provider: our ledger is the book of record (docs/payouts.md).
 */
const SERVICE_PHONE_RE = /^(1\d{10}|0\d{2,3}-?\d{7,8}|400-?\d{3}-?\d{4})$/;

type MerchantInput = { shortName: string; servicePhone: string; category: string; provinceCode: string; cityCode: string; address: string };

function checkMerchant(input: MerchantInput) {
  const shortName = input.shortName.trim();
  if ([...shortName].length < 2 || [...shortName].length > 20) throw new ApiError(Status.INVALID, 'merchantBadShortName');
  const servicePhone = input.servicePhone.replace(/\s/g, '');
  if (!SERVICE_PHONE_RE.test(servicePhone)) throw new ApiError(Status.INVALID, 'merchantBadPhone');
  if (!(MERCHANT_CATEGORIES as readonly string[]).includes(input.category)) throw new ApiError(Status.INVALID, 'merchantBadCategory');
  const region = findRegion(input.provinceCode, input.cityCode);
  if (!region) throw new ApiError(Status.INVALID, 'accountBadRegion');
  const address = input.address.trim();
  if ([...address].length < 5 || [...address].length > 100) throw new ApiError(Status.INVALID, 'accountBadAddress');
  return { short_name: shortName, service_phone: servicePhone, category: input.category, province_code: region.province.code, city_code: region.city.code, address };
}

function view(r: { merchant_no: string; short_name: string; sign_name_masked: string; service_phone: string; category: string; province_code: string; city_code: string; address: string; state: 'active'; created_at: number; updated_at: number }) {
  return {
    merchantNo: r.merchant_no, shortName: r.short_name, signNameMasked: r.sign_name_masked, servicePhone: r.service_phone, category: r.category,
    provinceCode: r.province_code, cityCode: r.city_code, address: r.address, state: r.state, createdAt: Number(r.created_at), updatedAt: Number(r.updated_at),
  };
}

async function requireCreatorAccount(ctx: AppContext, userId: number) {
  const user = await ctx.db.kysely.selectFrom('users').select('is_creator').where('id', '=', userId).executeTakeFirstOrThrow();
  if (!Number(user.is_creator)) throw new ApiError(Status.PAYOUT_STATE, 'merchantNotCreator');
  const account = await ctx.db.kysely.selectFrom('payout_accounts').select(['state', 'merchant_no']).where('user_id', '=', userId).executeTakeFirst();
  if (account?.state !== 'active' || !account.merchant_no) throw new ApiError(Status.PAYOUT_STATE, 'accountNotOpen');
  return account.merchant_no;
}

export async function getMerchant(ctx: AppContext, userId: number) {
  const r = await ctx.db.kysely.selectFrom('payout_merchants').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return r ? view(r) : null;
}

export async function createMerchant(ctx: AppContext, userId: number, input: MerchantInput) {
  const merchantNo = await requireCreatorAccount(ctx, userId);
  const fields = checkMerchant(input);
  const realname = await requireRealname(ctx, userId);
  const now = ctx.now();
  try {
    await ctx.db.kysely.insertInto('payout_merchants').values({ user_id: userId, merchant_no: merchantNo, sign_name_masked: realname.nameMasked, state: 'active', created_at: now, updated_at: now, ...fields }).execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(Status.PAYOUT_STATE, 'merchantExists');
    throw err;
  }
  return (await getMerchant(ctx, userId))!;
}

export async function updateMerchant(ctx: AppContext, userId: number, input: MerchantInput) {
  await requireCreatorAccount(ctx, userId);
  const fields = checkMerchant(input);
  const res = await ctx.db.kysely.updateTable('payout_merchants').set({ ...fields, updated_at: ctx.now() }).where('user_id', '=', userId).executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new ApiError(Status.PAYOUT_STATE, 'merchantNone');
  return (await getMerchant(ctx, userId))!;
}

async function splitView(ctx: AppContext, userId: number) {
  const r = await ctx.db.kysely
    .selectFrom('payout_split_relations')
    .innerJoin('creators', 'creators.id', 'payout_split_relations.creator_id')
    .select(['payout_split_relations.creator_id', 'creators.name', 'payout_split_relations.merchant_no', 'payout_split_relations.ratio_permille', 'payout_split_relations.state', 'payout_split_relations.bound_at'])
    .where('payout_split_relations.user_id', '=', userId)
    .executeTakeFirst();
  return r ? { creatorId: Number(r.creator_id), creatorName: r.name, merchantNo: r.merchant_no, ratioPermille: Number(r.ratio_permille), state: r.state, boundAt: Number(r.bound_at) } : null;
}

export const getSplitRelation = splitView;

/** Binds my creator income to my merchant (idempotent: binding again answers the relation). */
export async function bindSplitRelation(ctx: AppContext, userId: number) {
  await requireCreatorAccount(ctx, userId);
  const merchant = await ctx.db.kysely.selectFrom('payout_merchants').select('merchant_no').where('user_id', '=', userId).executeTakeFirst();
  if (!merchant) throw new ApiError(Status.PAYOUT_STATE, 'splitNeedMerchant');
  const creator = await ctx.db.kysely.selectFrom('creators').select('id').where('user_id', '=', userId).executeTakeFirst();
  if (!creator) throw new ApiError(Status.PAYOUT_STATE, 'merchantNotCreator');
  await ctx.db.kysely
    .insertInto('payout_split_relations')
    .values({ user_id: userId, creator_id: Number(creator.id), merchant_no: merchant.merchant_no, ratio_permille: 1000 - ctx.config.drops.commissionPermille, state: 'bound', bound_at: ctx.now() })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  return (await splitView(ctx, userId))!;
}
