import { DEFAULT_MESSAGE_SETTINGS, MESSAGE_KINDS, type MessageKind, type MessageSetting } from '@cfx/contract/user-messages.ts';
import type { AppContext } from '../../context.ts';
import './tables.ts';

const MOBILE_RE = /^1\d{10}$/;

/** getmsgsetting: every kind with its switches (the defaults where nothing is saved). */
export async function getMessageSettings(ctx: AppContext, userId: number): Promise<{ items: MessageSetting[]; smsAvailable: boolean }> {
  const k = ctx.db.kysely;
  const [rows, user] = await Promise.all([
    k.selectFrom('message_settings').select(['kind', 'in_app', 'sms']).where('user_id', '=', userId).execute(),
    k.selectFrom('users').select('mobile').where('id', '=', userId).executeTakeFirst(),
  ]);
  const saved = new Map(rows.map((r) => [r.kind, r]));
  const items = MESSAGE_KINDS.map((kind) => {
    const r = saved.get(kind);
    return r ? { kind, inApp: Number(r.in_app) === 1, sms: Number(r.sms) === 1 } : { kind, ...DEFAULT_MESSAGE_SETTINGS[kind] };
  });
  return { items, smsAvailable: !!user && MOBILE_RE.test(user.mobile) };
}

/** submitmsg: saves the given kinds' switches (a switch left out keeps its value); answers every kind. */
export async function saveMessageSettings(ctx: AppContext, userId: number, items: { kind: MessageKind; inApp?: boolean; sms?: boolean }[]) {
  const current = new Map((await getMessageSettings(ctx, userId)).items.map((i) => [i.kind, i]));
  const now = ctx.now();
  await ctx.db.kysely.transaction().execute(async (trx) => {
    for (const item of items) {
      const cur = current.get(item.kind)!;
      const next = { inApp: item.inApp ?? cur.inApp, sms: item.sms ?? cur.sms };
      current.set(item.kind, { kind: item.kind, ...next });
      await trx
        .insertInto('message_settings')
        .values({ user_id: userId, kind: item.kind, in_app: next.inApp ? 1 : 0, sms: next.sms ? 1 : 0, updated_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet({ in_app: next.inApp ? 1 : 0, sms: next.sms ? 1 : 0, updated_at: now }))
        .execute();
    }
  });
  return getMessageSettings(ctx, userId);
}
