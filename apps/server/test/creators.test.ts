import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREATOR_LIMITS } from '@cfx/contract/creator-rules.ts';
import { CatalogPaths, CreatorPaths, DevPaths, SettledPaths } from '@cfx/contract/routes.ts';
import { API, call, makeApp, register, type TestApp } from './helpers.ts';
import { png, upload } from './upload-helpers.ts';

/**
 * Follow and creators on a real app and database (SQLite, or PostgreSQL with TEST_PG_URL): follow
 * is idempotent and safe under parallel calls with a follower count that always equals the follows
 * rows, no self-follow, the rate limit; the creator's own profile edit with its link rules and own
 * uploads only; media info; moments with own images (sizes read from the files), sanitised HTML,
 * paging, soft delete of own moments only, the daily cap; the follow list and the feed.
 */
let t: TestApp;
const EN = { lang: 'en' };

beforeAll(async () => {
  t = await makeApp();
});
afterAll(async () => {
  await t?.close();
});

async function user() {
  const u = await register(t);
  return { ...u, h: { token: u.token, ...EN } };
}
async function creator(name?: string) {
  const u = await user();
  const r = await call(t, DevPaths.makeCreator, name ? { name } : {}, u.h);
  expect(r.status).toBe('000000');
  return { ...u, creatorId: r.data.creatorId as number, accountId: r.data.accountId as string };
}
const follow = (h: Record<string, string>, creatorId: number, on = true) => call(t, CreatorPaths.follow, { creatorId, follow: on }, h);
const query = (creatorId: number, h: Record<string, string> = EN) => call(t, CatalogPaths.creatorQuery, { id: creatorId }, h);
const followRows = async (creatorId: number) =>
  Number((await t.ctx.db.kysely.selectFrom('follows').select((e) => e.fn.countAll<number>().as('n')).where('creator_id', '=', creatorId).executeTakeFirst())?.n);
/** Moves business time past the follow rate-limit window. */
const nextMinute = () => (t.clock.t += 61_000);

describe('follow', () => {
  it('needs a login; an unknown creator is 1404; a creator cannot follow themself', async () => {
    const c = await creator();
    expect(await call(t, CreatorPaths.follow, { creatorId: c.creatorId, follow: true }, EN)).toMatchObject({ status: '1100' });
    expect(await follow(c.h, 99_999_999)).toMatchObject({ http: 404, status: '1404', message: 'creator not found' });
    expect(await follow(c.h, c.creatorId)).toMatchObject({ status: '1001', message: 'you cannot follow yourself' });
    expect(await call(t, CreatorPaths.follow, { creatorId: c.creatorId, follow: 'yes' }, c.h)).toMatchObject({ status: '1001' });
    expect(await followRows(c.creatorId)).toBe(0);
  });

  it('is idempotent: following twice is one follower, unfollowing twice is fine; the query shows count and flag', async () => {
    const c = await creator();
    const fan = await user();
    expect(await follow(fan.h, c.creatorId)).toMatchObject({ status: '000000', message: 'followed', data: { creatorId: c.creatorId, following: true, followerCount: 1 } });
    expect(await follow(fan.h, c.creatorId)).toMatchObject({ status: '000000', data: { following: true, followerCount: 1 } });
    expect(await followRows(c.creatorId)).toBe(1);

    expect((await query(c.creatorId, fan.h)).data).toMatchObject({ followerCount: 1, following: true });
    expect((await query(c.creatorId)).data).toMatchObject({ followerCount: 1, following: false });
    // a stale token on the public query is a visitor, not a lost session
    expect(await query(c.creatorId, { token: 'not-a-token', ...EN })).toMatchObject({ status: '000000', data: { following: false } });

    expect(await follow(fan.h, c.creatorId, false)).toMatchObject({ status: '000000', message: 'unfollowed', data: { following: false, followerCount: 0 } });
    expect(await follow(fan.h, c.creatorId, false)).toMatchObject({ status: '000000', data: { following: false, followerCount: 0 } });
    expect(await followRows(c.creatorId)).toBe(0);
    expect((await query(c.creatorId, fan.h)).data).toMatchObject({ followerCount: 0, following: false });
  });

  it('stays consistent under parallel calls: a double follow is one row, the counter equals the rows', async () => {
    const c = await creator();
    const fans: Awaited<ReturnType<typeof user>>[] = [];
    for (let i = 0; i < 8; i++) fans.push(await user()); // registering moves the test clock: one at a time
    // the same user following in parallel
    const same = await Promise.all(Array.from({ length: 6 }, () => follow(fans[0]!.h, c.creatorId)));
    expect(same.every((r) => r.status === '000000' && r.data.following)).toBe(true);
    expect(await followRows(c.creatorId)).toBe(1);
    expect((await query(c.creatorId)).data.followerCount).toBe(1);

    // many users in parallel, each twice
    await Promise.all(fans.flatMap((f) => [follow(f.h, c.creatorId), follow(f.h, c.creatorId)]));
    expect(await followRows(c.creatorId)).toBe(8);
    expect((await query(c.creatorId)).data.followerCount).toBe(8);

    // follows and unfollows racing: whatever the order, the counter equals the rows
    await Promise.all(fans.flatMap((f, i) => [follow(f.h, c.creatorId, i % 2 === 0), follow(f.h, c.creatorId, false), follow(f.h, c.creatorId, i % 3 === 0)]));
    const rows = await followRows(c.creatorId);
    expect((await query(c.creatorId)).data.followerCount).toBe(rows);
  });

  it('is rate-limited per user (1006), and free again a minute later', async () => {
    const c = await creator();
    const fan = await user();
    nextMinute();
    for (let i = 0; i < CREATOR_LIMITS.followActionsPerMinute; i++) {
      expect((await follow(fan.h, c.creatorId, i % 2 === 0)).status).toBe('000000');
    }
    const r = await follow(fan.h, c.creatorId);
    expect(r).toMatchObject({ status: '1006', message: 'too many follow actions, please try again in 60 seconds' });
    nextMinute();
    expect(await follow(fan.h, c.creatorId)).toMatchObject({ status: '000000', data: { following: true } });
  });

  it('lists the creators I follow, newest follow first, with paging and the latest moment time', async () => {
    const a = await creator('甲工作室');
    const b = await creator('乙工作室');
    const fan = await user();
    nextMinute();
    await follow(fan.h, a.creatorId);
    t.clock.t += 1000;
    await follow(fan.h, b.creatorId);
    t.clock.t += 1000;
    const posted = await call(t, CreatorPaths.addMoment, { content: '新作预告' }, a.h);
    expect(posted.status).toBe('000000');

    expect(await call(t, CreatorPaths.followList, {}, EN)).toMatchObject({ status: '1100' });
    const all = await call(t, CreatorPaths.followList, { pageNum: 1, pageSize: 10 }, fan.h);
    expect(all.data).toMatchObject({ total: 2, pageNum: 1, pageSize: 10 });
    expect(all.data.list.map((x: { name: string }) => x.name)).toEqual(['乙工作室', '甲工作室']);
    expect(all.data.list[1]).toMatchObject({ id: a.creatorId, accountId: a.accountId, followerCount: 1, lastMomentAt: posted.data.createdAt });
    expect(all.data.list[0]).toMatchObject({ id: b.creatorId, lastMomentAt: null });
    expect(typeof all.data.list[0].avatar).toBe('string');
    const p2 = await call(t, CreatorPaths.followList, { pageNum: 2, pageSize: 1 }, fan.h);
    expect(p2.data).toMatchObject({ total: 2, list: [{ id: a.creatorId }] });
  });
});

describe('creator profile', () => {
  it('only a creator edits, and only their own profile; the fields are checked', async () => {
    const plain = await user();
    expect(await call(t, CreatorPaths.update, { name: 'x' }, plain.h)).toMatchObject({ status: '1012', message: 'you are not a creator yet; please apply to enlist a project first' });
    expect(await call(t, CreatorPaths.update, { name: 'x' }, EN)).toMatchObject({ status: '1100' });

    const c = await creator('原名');
    const other = await creator('别人');
    // the search index is built now, with the old name
    expect((await call(t, '/search/v1/query', { text: '原名' }, EN)).data.creators.map((x: { id: number }) => x.id)).toContain(c.creatorId);
    const r = await call(
      t,
      CreatorPaths.update,
      {
        name: '  青山工作室 ',
        intro: '专注东方美学的数字艺术。\n第二行',
        mediaLinks: [
          { type: 'weibo', label: '微博', url: 'https://weibo.com/u/123' },
          { type: 'bilibili', label: 'B站', url: 'https://space.bilibili.com/42' },
          { type: 'website', label: '官网', url: 'https://qingshan.example.com/about' },
        ],
      },
      c.h,
    );
    expect(r).toMatchObject({ status: '000000', message: 'profile saved', data: { id: c.creatorId, name: '青山工作室', intro: '专注东方美学的数字艺术。\n第二行' } });
    expect(r.data.mediaLinks).toEqual([
      { type: 'weibo', label: '微博', url: 'https://weibo.com/u/123' },
      { type: 'bilibili', label: 'B站', url: 'https://space.bilibili.com/42' },
      { type: 'website', label: '官网', url: 'https://qingshan.example.com/about' },
    ]);
    // search knows the new name at once (without waiting for the index's rebuild)
    const found = await call(t, '/search/v1/query', { text: '青山工作室' }, EN);
    expect(found.data.creators.map((x: { id: number }) => x.id)).toContain(c.creatorId);
    // the other creator is untouched
    expect((await query(other.creatorId)).data).toMatchObject({ name: '别人', mediaLinks: [] });
    // omitted fields stay
    expect((await call(t, CreatorPaths.update, { intro: '新简介' }, c.h)).data).toMatchObject({ name: '青山工作室', intro: '新简介' });

    expect(await call(t, CreatorPaths.update, { name: '   ' }, c.h)).toMatchObject({ status: '1001', message: 'the creator name must be 1-40 characters' });
    expect(await call(t, CreatorPaths.update, { name: 'a'.repeat(41) }, c.h)).toMatchObject({ status: '1001' });
    expect(await call(t, CreatorPaths.update, { intro: '字'.repeat(501) }, c.h)).toMatchObject({ status: '1001', message: 'the introduction is limited to 500 characters' });
  });

  it('refuses invalid media links with the position of the link', async () => {
    const c = await creator();
    const bad = async (link: { type: string; label: string; url: string }, message: string) => {
      const r = await call(t, CreatorPaths.update, { mediaLinks: [{ type: 'website', label: '官网', url: 'https://ok.example.com/' }, link] }, c.h);
      expect(r, JSON.stringify(link)).toMatchObject({ status: '1001', message });
    };
    await bad({ type: 'website', label: '站', url: 'http://insecure.example.com/' }, 'link 2: the address must be a valid https:// URL');
    await bad({ type: 'website', label: '站', url: 'javascript:alert(1)' }, 'link 2: the address must be a valid https:// URL');
    await bad({ type: 'website', label: '站', url: 'https://127.0.0.1/admin' }, 'link 2: the address must be a valid https:// URL');
    await bad({ type: 'website', label: '站', url: 'https://localhost/' }, 'link 2: the address must be a valid https:// URL');
    await bad({ type: 'website', label: '站', url: 'https://user:pw@example.com/' }, 'link 2: the address must be a valid https:// URL');
    await bad({ type: 'website', label: '站', url: 'not a url' }, 'link 2: the address must be a valid https:// URL');
    await bad({ type: 'weibo', label: '微博', url: 'https://weibo.com.evil.example/' }, "link 2: the address is not on the chosen platform's site");
    await bad({ type: 'bilibili', label: 'B站', url: 'https://example.com/bilibili.com' }, "link 2: the address is not on the chosen platform's site");
    await bad({ type: 'myspace', label: 'x', url: 'https://myspace.com/' }, 'link 2: this platform type is not supported');
    await bad({ type: 'website', label: '', url: 'https://example.com/' }, 'link 2: the label must be 1-20 characters');
    const many = Array.from({ length: CREATOR_LIMITS.mediaLinksMax + 1 }, (_, i) => ({ type: 'website', label: `站${i}`, url: `https://s${i}.example.com/` }));
    expect(await call(t, CreatorPaths.update, { mediaLinks: many }, c.h)).toMatchObject({ status: '1001', message: 'at most 8 media links' });
    expect((await query(c.creatorId)).data.mediaLinks).toEqual([]);
  });

  it('takes avatar and banner from the creator’s own image uploads only', async () => {
    const c = await creator();
    const stranger = await user();
    const theirs = await upload(t, SettledPaths.upload, stranger.token, { data: png(64, 64), filename: 'a.png' });
    expect(await call(t, CreatorPaths.update, { avatarKey: theirs.data.key }, c.h)).toMatchObject({ status: '1012', message: 'an attachment does not exist or is not yours, please upload it again' });
    expect(await call(t, CreatorPaths.update, { bannerKey: 'public/img/202401/' + '0'.repeat(32) + '.png' }, c.h)).toMatchObject({ status: '1012' });
    expect(await call(t, CreatorPaths.update, { avatarKey: '../../etc/passwd' }, c.h)).toMatchObject({ status: '1012' });

    // the creators' upload call: creators only, images only, answers the pixel size
    expect(await upload(t, CreatorPaths.upload, stranger.token, { data: png(64, 64), filename: 'a.png' })).toMatchObject({ status: '1012' });
    expect(await upload(t, CreatorPaths.upload, c.token, { data: 'hello', filename: 'a.png' })).toMatchObject({ status: '1030' });
    const avatar = await upload(t, CreatorPaths.upload, c.token, { data: png(120, 100), filename: 'avatar.png' });
    expect(avatar).toMatchObject({ status: '000000', data: { width: 120, height: 100, type: 'image/png' } });
    const banner = await upload(t, SettledPaths.upload, c.token, { data: png(300, 100), filename: 'banner.png' });
    const r = await call(t, CreatorPaths.update, { avatarKey: avatar.data.key, bannerKey: banner.data.key }, c.h);
    expect(r).toMatchObject({ status: '000000', data: { avatar: `/media/uploads/${avatar.data.key}`, banner: `/media/uploads/${banner.data.key}` } });
    expect((await t.app.inject({ method: 'GET', url: r.data.avatar })).statusCode).toBe(200);
  });

  it('answers media links and stats, public by id or account id, or my own without one', async () => {
    const c = await creator();
    await call(t, CreatorPaths.update, { mediaLinks: [{ type: 'douyin', label: '抖音', url: 'https://www.douyin.com/user/1' }] }, c.h);
    const fan = await user();
    nextMinute();
    await follow(fan.h, c.creatorId);
    await call(t, CreatorPaths.addMoment, { content: '一' }, c.h);
    const expected = { creatorId: c.creatorId, accountId: c.accountId, mediaLinks: [{ type: 'douyin', label: '抖音', url: 'https://www.douyin.com/user/1' }], stats: { followers: 1, releases: 0, moments: 1, goods: 0, holders: 0 } };
    expect((await call(t, CreatorPaths.mediaInfo, { creatorId: c.creatorId }, EN)).data).toEqual(expected);
    expect((await call(t, CreatorPaths.mediaInfo, { accountId: c.accountId }, EN)).data).toEqual(expected);
    expect((await call(t, CreatorPaths.mediaInfo, {}, c.h)).data).toEqual(expected);
    expect(await call(t, CreatorPaths.mediaInfo, {}, EN)).toMatchObject({ status: '1100' });
    expect(await call(t, CreatorPaths.mediaInfo, {}, fan.h)).toMatchObject({ status: '1012' });
    expect(await call(t, CreatorPaths.mediaInfo, { accountId: 'nobody' }, EN)).toMatchObject({ status: '1404' });
  });
});

describe('moments', () => {
  it('a creator posts text and own images; sizes come from the files; others’ uploads are refused', async () => {
    const c = await creator();
    const stranger = await user();
    const a = await upload(t, CreatorPaths.upload, c.token, { data: png(40, 30), filename: 'a.png' });
    const b = await upload(t, SettledPaths.upload, c.token, { data: png(20, 50), filename: 'b.png' });
    const theirs = await upload(t, SettledPaths.upload, stranger.token, { data: png(20, 20), filename: 'x.png' });

    expect(await call(t, CreatorPaths.addMoment, { content: 'hi' }, stranger.h)).toMatchObject({ status: '1012', message: 'you are not a creator yet; please apply to enlist a project first' });
    expect(await call(t, CreatorPaths.addMoment, { content: 'hi', imageKeys: [a.data.key, theirs.data.key] }, c.h)).toMatchObject({ status: '1012', message: 'an attachment does not exist or is not yours, please upload it again' });
    expect(await call(t, CreatorPaths.addMoment, { content: 'hi', imageKeys: [a.data.key, a.data.key] }, c.h)).toMatchObject({ status: '1001', message: 'the same picture was added twice' });

    const r = await call(t, CreatorPaths.addMoment, { content: '第一条动态\n第二行', imageKeys: [b.data.key, a.data.key] }, c.h);
    expect(r).toMatchObject({
      status: '000000',
      message: 'posted',
      data: {
        creatorId: c.creatorId,
        contentHtml: '第一条动态\n第二行',
        deletable: true,
        images: [
          { url: `/media/uploads/${b.data.key}`, width: 20, height: 50 },
          { url: `/media/uploads/${a.data.key}`, width: 40, height: 30 },
        ],
      },
    });
    // images only is fine too
    expect((await call(t, CreatorPaths.addMoment, { imageKeys: [a.data.key] }, c.h)).status).toBe('000000');
  });

  it('sanitises HTML: scripts, event handlers and unsafe links are stripped', async () => {
    const c = await creator();
    const r = await call(
      t,
      CreatorPaths.addMoment,
      { content: '<p onclick="x()">新作<b>发布</b></p><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">坏链接</a> <a href="https://example.com/a" onmouseover="y()">好链接</a> 1 < 2' },
      c.h,
    );
    expect(r.status).toBe('000000');
    const html: string = r.data.contentHtml;
    expect(html).toBe('<p>新作<b>发布</b></p>坏链接 <a href="https://example.com/a" target="_blank" rel="noopener noreferrer nofollow ugc">好链接</a> 1 &lt; 2');
    expect(html).not.toMatch(/script|onerror|onclick|onmouseover|javascript:|<img/i);
    const listed = await call(t, CreatorPaths.listMoments, { creatorId: c.creatorId }, EN);
    expect(listed.data.list[0].contentHtml).toBe(html);
  });

  it('refuses empty, too long and too many images', async () => {
    const c = await creator();
    expect(await call(t, CreatorPaths.addMoment, { content: '   ' }, c.h)).toMatchObject({ status: '1001', message: 'please write something or add a picture' });
    expect(await call(t, CreatorPaths.addMoment, { content: '<script>only a script</script>' }, c.h)).toMatchObject({ status: '1001', message: 'please write something or add a picture' });
    expect(await call(t, CreatorPaths.addMoment, { content: '字'.repeat(1001) }, c.h)).toMatchObject({ status: '1001', message: 'a moment is limited to 1000 characters' });
    // markup does not count towards the length
    expect((await call(t, CreatorPaths.addMoment, { content: `<b>${'字'.repeat(1000)}</b>` }, c.h)).status).toBe('000000');
    const keys = Array.from({ length: 10 }, (_, i) => `public/img/202401/${String(i).padStart(32, '0')}.png`);
    expect(await call(t, CreatorPaths.addMoment, { content: 'x', imageKeys: keys }, c.h)).toMatchObject({ status: '1001', message: 'at most 9 pictures per moment' });
  });

  it('lists publicly, newest first, with paging; deletes own moments only (soft); the feed follows follows', async () => {
    const c = await creator();
    const other = await creator();
    const fan = await user();
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) {
      t.clock.t += 1000;
      ids.push((await call(t, CreatorPaths.addMoment, { content: `动态${i}` }, c.h)).data.id);
    }
    const page1 = await call(t, CreatorPaths.listMoments, { accountId: c.accountId, pageNum: 1, pageSize: 2 }, EN);
    expect(page1.data).toMatchObject({ total: 5, pageNum: 1, pageSize: 2 });
    expect(page1.data.list.map((m: { id: number }) => m.id)).toEqual([ids[4], ids[3]]);
    expect(page1.data.list.every((m: { deletable: boolean }) => !m.deletable)).toBe(true);
    const page3 = await call(t, CreatorPaths.listMoments, { creatorId: c.creatorId, pageNum: 3, pageSize: 2 }, EN);
    expect(page3.data.list.map((m: { id: number }) => m.id)).toEqual([ids[0]]);
    expect((await call(t, CreatorPaths.listMoments, { creatorId: c.creatorId }, c.h)).data.list.every((m: { deletable: boolean }) => m.deletable)).toBe(true);
    expect(await call(t, CreatorPaths.listMoments, {}, EN)).toMatchObject({ status: '1001' });
    expect(await call(t, CreatorPaths.listMoments, { creatorId: 99_999_999 }, EN)).toMatchObject({ status: '1404' });

    // the feed: moments of followed creators only
    nextMinute();
    await follow(fan.h, c.creatorId);
    t.clock.t += 1000;
    const otherMoment = (await call(t, CreatorPaths.addMoment, { content: '别人的动态' }, other.h)).data.id;
    let feed = await call(t, CreatorPaths.followMoments, { pageNum: 1, pageSize: 10 }, fan.h);
    expect(feed.data.total).toBe(5);
    expect(feed.data.list[0]).toMatchObject({ id: ids[4], creator: { id: c.creatorId, accountId: c.accountId }, deletable: false });
    expect(feed.data.list.some((m: { id: number }) => m.id === otherMoment)).toBe(false);
    expect(await call(t, CreatorPaths.followMoments, {}, EN)).toMatchObject({ status: '1100' });

    // delete: others' refused, own soft-deleted (again: still success), unknown 1404
    expect(await call(t, CreatorPaths.deleteMoment, { id: ids[4] }, other.h)).toMatchObject({ status: '1012', message: 'you can only delete your own moments' });
    expect(await call(t, CreatorPaths.deleteMoment, { id: ids[4] }, fan.h)).toMatchObject({ status: '1012' });
    expect(await call(t, CreatorPaths.deleteMoment, { id: ids[4] }, EN)).toMatchObject({ status: '1100' });
    expect(await call(t, CreatorPaths.deleteMoment, { id: ids[4] }, c.h)).toMatchObject({ status: '000000', message: 'deleted', data: { id: ids[4], deleted: true } });
    expect(await call(t, CreatorPaths.deleteMoment, { id: ids[4] }, c.h)).toMatchObject({ status: '000000' });
    expect(await call(t, CreatorPaths.deleteMoment, { id: 99_999_999 }, c.h)).toMatchObject({ status: '1404', message: 'moment not found or deleted' });
    const row = await t.ctx.db.kysely.selectFrom('creator_moments').select('deleted_at').where('id', '=', ids[4]!).executeTakeFirstOrThrow();
    expect(Number(row.deleted_at)).toBe(t.clock.t);

    const after = await call(t, CreatorPaths.listMoments, { creatorId: c.creatorId }, EN);
    expect(after.data.total).toBe(4);
    expect(after.data.list[0].id).toBe(ids[3]);
    expect((await query(c.creatorId)).data.momentCount).toBe(4);
    feed = await call(t, CreatorPaths.followMoments, {}, fan.h);
    expect(feed.data.list.map((m: { id: number }) => m.id)).not.toContain(ids[4]);
    const followed = await call(t, CreatorPaths.followList, {}, fan.h);
    expect(followed.data.list[0].lastMomentAt).toBe(after.data.list[0].createdAt);

    // unfollowing empties the feed
    await follow(fan.h, c.creatorId, false);
    expect((await call(t, CreatorPaths.followMoments, {}, fan.h)).data).toMatchObject({ total: 0, list: [] });
  });

  it('caps moments per creator per day, deleted ones included', async () => {
    const c = await creator();
    for (let i = 0; i < CREATOR_LIMITS.momentsPerDay; i++) {
      const r = await call(t, CreatorPaths.addMoment, { content: `第${i}条` }, c.h);
      expect(r.status).toBe('000000');
      if (i === 0) await call(t, CreatorPaths.deleteMoment, { id: r.data.id }, c.h);
    }
    expect(await call(t, CreatorPaths.addMoment, { content: '再来一条' }, c.h)).toMatchObject({ status: '1006', message: 'daily limit of moments reached (20), please try again tomorrow' });
    t.clock.t += 24 * 3600_000 + 1;
    expect((await call(t, CreatorPaths.addMoment, { content: '第二天' }, c.h)).status).toBe('000000');
  });
});

describe('bad input', () => {
  it('random bodies on every follow and creator call answer the envelope, never a 5xx', async () => {
    const c = await creator();
    const paths = [...Object.values(CreatorPaths).filter((p) => p !== CreatorPaths.upload), DevPaths.makeCreator, CatalogPaths.creatorQuery];
    const value = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ minLength: 2000, maxLength: 6000 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 250 }), { maxLength: 12 }), fc.object());
    const key = fc.constantFrom('creatorId', 'follow', 'accountId', 'id', 'pageNum', 'pageSize', 'content', 'imageKeys', 'name', 'intro', 'avatarKey', 'bannerKey', 'mediaLinks', '__proto__');
    const body = fc.oneof(fc.dictionary(key, value).map((v) => JSON.stringify(v)), fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'), fc.constantFrom('', '{', 'null', '[]', '{"mediaLinks":[{"type":"website","label":"x","url":"https://[::1]/"}]}'));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 1000 }), body, fc.boolean(), async (i, payload, signed) => {
        const url = API + paths[i % paths.length]!;
        const res = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', channel: 'pc', ...(signed ? { token: c.token } : {}) }, payload });
        expect(res.statusCode, `${url} ${payload.slice(0, 120)}`).toBeLessThan(500);
        expect(typeof res.json().status).toBe('string');
      }),
      { numRuns: 400 },
    );
  });
});
