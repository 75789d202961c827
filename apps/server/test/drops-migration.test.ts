import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { loadSecretBox } from '../src/util/secret-box.ts';

/**
 * Migration 0010 on a database that already has market orders and real names (SQLite rebuilds
 * `orders` and `realname` from their stored DDL; PostgreSQL drops the NOT NULLs and the unique
 * constraint): rows, indexes and constraints survive, drop orders fit, the stock of existing
 * releases starts at what they sold.
 */
let db: Db;
let dataDir: string;
let dropDb: (() => Promise<void>) | undefined;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfx-mig-'));
  let databaseUrl: string | undefined;
  if (process.env.TEST_PG_URL) {
    const name = `t_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_PG_URL });
    await admin.connect();
    await admin.query(`create database ${name} template template0 encoding 'UTF8'`);
    await admin.end();
    const u = new URL(process.env.TEST_PG_URL);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: process.env.TEST_PG_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  db = openDatabase({ databaseUrl, dataDir });
});
afterAll(async () => {
  await db?.close();
  await dropDb?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('migration 0010-drops on a populated database', () => {
  it('keeps market orders and real names, relaxes the columns, initialises the stock', async () => {
    const env = { secrets: loadSecretBox(dataDir), now: Date.now() };
    await migrate(db, env, '0009-market-safety');
    const k = db.kysely as any;
    const now = Date.now();
    const user = async (n: number) =>
      Number((await k.insertInto('users').values({ account_id: `a${n}`, mobile: `1390000000${n}`, password_hash: null, nickname: `u${n}`, profpic_id: '1', is_realname: 1, is_creator: 0, wallet_address: null, invite_code: `IC${n}`, invited_by: null, regist_channel: null, created_at: now }).returning('id').executeTakeFirstOrThrow()).id);
    const [a, b, c] = [await user(1), await user(2), await user(3)];
    const creator = Number((await k.insertInto('creators').values({ user_id: a, name: 'c', avatar: '', banner: '', intro: '', media_links: '[]', sort: 0, created_at: now }).returning('id').executeTakeFirstOrThrow()).id);
    const project = Number((await k.insertInto('projects').values({ creator_id: creator, name: 'p', cover: '', category: 'art', description_html: '', supply: 10, sold: 4, price_fen: 100, sale_start_at: now, sale_end_at: null, contract_address: null, token_start: 1, token_end: 10, holding_days: 0, sort: 0, created_at: now }).returning('id').executeTakeFirstOrThrow()).id);
    const goods = Number((await k.insertInto('goods').values({ project_id: project, serial: 4, token_id: 4, contract: null, chain_status: 'minted', mint_tx_hash: null, minted_at: now, owner_user_id: b, name: 'g', image: '', attributes: '[]', status: 'on_sale', sale_price_fen: 500, listed_at: now, last_price_fen: 100, acquired_at: now, created_at: now }).returning('id').executeTakeFirstOrThrow()).id);
    const listing = Number((await k.insertInto('listings').values({ goods_id: goods, seller_user_id: b, seller_address: 'cfx:x', nft_token: 'cfx:y', token_id: '4', price_fen: 500, seller_order_id: 'S1', signature: null, kind: 'market', bid_id: null, status: 'reserved', reserved_order_no: 'MO1', close_reason: null, draft_expires_at: now, created_at: now, listed_at: now, closed_at: null }).returning('id').executeTakeFirstOrThrow()).id);
    await k.insertInto('orders').values({ order_no: 'MO1', kind: 'market', listing_id: listing, goods_id: goods, buyer_user_id: c, seller_user_id: b, buyer_address: 'cfx:z', price_fen: 500, commission_fen: 25, royalty_fen: 0, royalty_user_id: null, seller_income_fen: 475, status: 'expired', pay_method: null, provider_trade_no: null, expires_at: now, chain_tx_id: null, tx_hash: null, fail_reason: null, created_at: now, paid_at: null, completed_at: null, closed_at: now, closed_by: 'expiry' }).execute();
    const digest = 'd'.repeat(64);
    await k.insertInto('realname').values({ user_id: b, name_sealed: 'x', id_sealed: 'x', id_digest: digest, id_masked: 'x', name_masked: 'x', provider: 'test', verified_at: now, birth_sealed: null, adult: 1 }).execute();

    await migrate(db, env);

    const o = await k.selectFrom('orders').selectAll().where('order_no', '=', 'MO1').executeTakeFirstOrThrow();
    expect(o).toMatchObject({ kind: 'market', listing_id: listing, goods_id: goods, status: 'expired', closed_by: 'expiry', project_id: null, quantity: null });
    // a drop order: no listing, no goods
    await k.insertInto('orders').values({ order_no: 'DO1', kind: 'drop', listing_id: null, goods_id: null, buyer_user_id: c, seller_user_id: a, buyer_address: 'cfx:z', price_fen: 200, commission_fen: 20, royalty_fen: 0, royalty_user_id: null, seller_income_fen: 180, status: 'created', pay_method: null, provider_trade_no: null, expires_at: now, chain_tx_id: null, tx_hash: null, fail_reason: null, created_at: now, paid_at: null, completed_at: null, closed_at: null, project_id: project, quantity: 2, unit_price_fen: 100, identity_digest: digest }).execute();
    // constraints survived: order numbers unique, foreign keys checked
    await expect(k.insertInto('orders').values({ ...o, id: undefined, order_no: 'MO1' }).execute()).rejects.toThrow();
    await expect(k.insertInto('orders').values({ ...o, id: undefined, order_no: 'MO2', buyer_user_id: 999_999 }).execute()).rejects.toThrow();
    // indexes recreated
    const indexes = db.dialect === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'orders'`.execute(db.kysely)).rows.map((r) => r.name)
      : (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'orders'`.execute(db.kysely)).rows.map((r) => r.name);
    for (const i of ['orders_buyer', 'orders_seller', 'orders_status_expiry', 'orders_buyer_closed', 'orders_project']) expect(indexes).toContain(i);
    // a second account may now verify with the same ID number
    await k.insertInto('realname').values({ user_id: c, name_sealed: 'x', id_sealed: 'x', id_digest: digest, id_masked: 'x', name_masked: 'x', provider: 'test', verified_at: now, birth_sealed: null, adult: 1 }).execute();
    await expect(k.insertInto('realname').values({ user_id: c, name_sealed: 'x', id_sealed: 'x', id_digest: 'e'.repeat(64), id_masked: 'x', name_masked: 'x', provider: 'test', verified_at: now, birth_sealed: null, adult: 1 }).execute()).rejects.toThrow();
    // the release's stock: sold 4 (serial 4 exists) → taken = paid = 4, next serial 5
    expect(await k.selectFrom('drop_stock').selectAll().where('project_id', '=', project).executeTakeFirstOrThrow()).toMatchObject({ supply: 10, taken: 4, paid: 4, next_serial: 5 });
  });
});
