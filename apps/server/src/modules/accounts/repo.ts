import type { AppContext } from '../../context.ts';

export async function findUserByMobile(ctx: AppContext, mobile: string) {
  return ctx.db.kysely.selectFrom('users').selectAll().where('mobile', '=', mobile).executeTakeFirst();
}

export async function findUserById(ctx: AppContext, id: number) {
  return ctx.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findProfpic(ctx: AppContext, id: string) {
  return ctx.db.kysely.selectFrom('profpics').selectAll().where('id', '=', id).executeTakeFirst();
}
