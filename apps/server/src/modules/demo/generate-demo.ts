import { hashString, mulberry32, pick, randInt, rngFor, type Rng } from '../../util/prng.ts';
import { escapeHtml, sanitizeRichText } from '../../util/rich-text.ts';
import { imageId, imageUrl, RARITIES, rarityOf } from '../content/index.ts';
import { ARTICLES, COLLECTOR_NAMES, CREATORS, RELEASES, type DemoRelease } from './demo-content.ts';
import { chinaParts } from '@cfx/protocol/china-time.ts';

/**
 * The demo catalogue as plain rows, a pure function of (now, number of collectibles): the same
 * arguments give the same catalogue. Users are referred to by index (creators first, then
 * collectors); the seeder maps them to database ids.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SEED = 20251121;

export interface DemoUser {
  mobile: string;
  nickname: string;
  profpicId: string;
  isCreator: boolean;
  accountSeed: number;
}
export interface DemoProject {
  key: string;
  creatorIndex: number;
  name: string;
  cover: string;
  category: string;
  descriptionHtml: string;
  supply: number;
  sold: number;
  priceFen: number;
  saleStartAt: number;
  saleEndAt: number | null;
  tokenStart: number;
  tokenEnd: number;
  holdingDays: number;
  sort: number;
}
export interface DemoGoods {
  projectIndex: number;
  serial: number;
  tokenId: number;
  ownerIndex: number;
  name: string;
  image: string;
  attributes: string;
  status: 'held' | 'on_sale';
  salePriceFen: number | null;
  listedAt: number | null;
  lastPriceFen: number;
  acquiredAt: number;
  createdAt: number;
}
export interface DemoAction {
  goodsIndex: number;
  action: 'mint' | 'list' | 'sale';
  fromIndex: number | null;
  toIndex: number | null;
  priceFen: number | null;
  at: number;
}
export interface DemoPricePoint {
  goodsIndex: number;
  priceFen: number;
  at: number;
}
export interface DemoNews {
  title: string;
  cover: string;
  summary: string;
  contentHtml: string;
  category: string;
  author: string;
  isHot: boolean;
  isPlace: boolean;
  placeSort: number;
  publishedAt: number;
}
export interface DemoBanner {
  position: 'home' | 'projects' | 'market' | 'news';
  title: string;
  subtitle: string;
  image: string;
  linkType: 'project' | 'goods' | 'news' | 'creator' | 'url';
  /** Index into projects / news / creators (resolved to ids by the seeder). */
  linkIndex: number;
  sort: number;
}
export interface DemoRecommend {
  code: string;
  title: string;
  sort: number;
  items: { type: 'project' | 'goods' | 'creator' | 'news'; index: number }[];
}
export interface DemoCatalog {
  users: DemoUser[];
  creators: { userIndex: number; name: string; avatar: string; banner: string; intro: string; mediaLinks: string; sort: number; createdAt: number }[];
  projects: DemoProject[];
  goods: DemoGoods[];
  actions: DemoAction[];
  prices: DemoPricePoint[];
  news: DemoNews[];
  banners: DemoBanner[];
  recommends: DemoRecommend[];
}

const fmtDate = (t: number) => {
  // Beijing time (UTC+8), as the site shows it.
  const p = chinaParts(t);
  return `${p.year}年${Number(p.month)}月${Number(p.day)}日 ${p.hour}:${p.minute}`;
};
const yuan = (fen: number) => `￥${(fen / 100).toFixed(2)}`;

function saleWindow(r: DemoRelease, now: number, rng: Rng): { start: number; end: number | null } {
  const hour = Math.floor(now / HOUR) * HOUR;
  switch (r.state) {
    case 'on_sale':
      return r.key === 'shengxiao' ? { start: hour - 2 * HOUR, end: hour + 3 * DAY } : { start: hour - DAY, end: hour + 5 * DAY };
    case 'upcoming_soon':
      return { start: hour + 3 * HOUR, end: hour + 3 * HOUR + 7 * DAY };
    case 'upcoming':
      return { start: hour + 2 * DAY, end: hour + 9 * DAY };
    case 'sold_out': {
      const start = hour - randInt(rng, 12, 55) * DAY;
      return { start, end: start + 7 * DAY };
    }
    case 'ended': {
      const start = hour - randInt(rng, 20, 40) * DAY;
      return { start, end: start + 3 * DAY };
    }
  }
}

function describe(r: DemoRelease, p: { priceFen: number; supply: number; start: number; end: number | null; creator: string }): string {
  const html = `<p>${escapeHtml(r.story)}</p>
<h3>发售信息</h3>
<ul><li>创作者：${escapeHtml(p.creator)}</li><li>发售价格：${yuan(p.priceFen)}</li><li>发行数量：${p.supply.toLocaleString('zh-CN')} 份</li><li>开售时间：${fmtDate(p.start)}</li>${p.end ? `<li>截止时间：${fmtDate(p.end)}</li>` : ''}<li>持有期：${r.holdingDays ? `到账后 ${r.holdingDays} 天内不可寄售或转赠` : '无'}</li></ul>
<h3>收藏权益</h3>
<p>每件藏品拥有唯一编号，记录于树图区块链。藏品的著作权归创作者所有，收藏者获得该作品的数字收藏凭证，可用于个人欣赏、展示与平台内流转，不得用于商业用途。</p>
<h3>购买须知</h3>
<ul><li>仅限已完成实名认证、年满 18 周岁并已连接钱包的用户购买；</li><li>数字藏品为虚拟商品，一经售出不支持七天无理由退货；</li><li>请理性消费，谨防炒作，禁止任何形式的场外交易。</li></ul>`;
  return sanitizeRichText(html);
}

export function generateDemo(now: number, goodsTarget: number): DemoCatalog {
  const rng = mulberry32(SEED);
  const created = Math.floor(now / DAY) * DAY - 90 * DAY;

  // Users: the six creators, then forty collectors. Mobile numbers start with 100: never a real subscriber.
  const users: DemoUser[] = [];
  CREATORS.forEach((c, i) => users.push({ mobile: `100000000${String(i + 1).padStart(2, '0')}`, nickname: c.name, profpicId: String((i % 12) + 1), isCreator: true, accountSeed: hashString(`creator:${c.key}`) }));
  COLLECTOR_NAMES.forEach((n, i) => users.push({ mobile: `100000001${String(i).padStart(2, '0')}`, nickname: n, profpicId: String(randInt(rng, 1, 12)), isCreator: false, accountSeed: hashString(`collector:${i}`) }));
  const collectorIndex = (r: Rng) => CREATORS.length + Math.floor(COLLECTOR_NAMES.length * r() * r()); // a few collect a lot

  const creators = CREATORS.map((c, i) => {
    const seed = hashString(c.key);
    return {
      userIndex: i,
      name: c.name,
      avatar: imageUrl(imageId('c', c.style, seed)),
      banner: imageUrl(imageId('cb', c.style, seed)),
      intro: c.intro,
      mediaLinks: JSON.stringify(c.links),
      sort: CREATORS.length - i,
      createdAt: created,
    };
  });

  // Supplies scale so that the sold units (the collectibles) add up to about goodsTarget.
  const baseSold = RELEASES.reduce((s, r) => s + Math.round(r.supply * r.soldShare), 0);
  const scale = goodsTarget / baseSold;
  const projects: DemoProject[] = [];
  let tokenNext = 1;
  RELEASES.forEach((r, i) => {
    const pr = rngFor(SEED, r.key);
    const supply = Math.max(10, Math.round(r.supply * scale));
    const sold = r.soldShare >= 1 ? supply : Math.round(supply * r.soldShare);
    const { start, end } = saleWindow(r, now, pr);
    const priceFen = r.priceYuan * 100;
    const creatorIndex = CREATORS.findIndex((c) => c.key === r.creator);
    projects.push({
      key: r.key,
      creatorIndex,
      name: r.name,
      cover: imageUrl(imageId('r', r.style, hashString(r.key))),
      category: r.category,
      descriptionHtml: describe(r, { priceFen, supply, start, end, creator: CREATORS[creatorIndex]!.name }),
      supply,
      sold,
      priceFen,
      saleStartAt: start,
      saleEndAt: end,
      tokenStart: tokenNext,
      tokenEnd: tokenNext + supply - 1,
      holdingDays: r.holdingDays,
      sort: i,
    });
    tokenNext += supply;
  });

  const goods: DemoGoods[] = [];
  const actions: DemoAction[] = [];
  const prices: DemoPricePoint[] = [];
  const BACKGROUNDS = ['晨曦', '暮色', '星夜', '云海', '烟雨', '雪霁'];
  projects.forEach((p, pi) => {
    const r = RELEASES[pi]!;
    const seed = hashString(r.key);
    const digits = Math.max(4, String(p.supply).length);
    const soldUntil = Math.min(now, p.saleEndAt ?? now);
    for (let serial = 1; serial <= p.sold; serial++) {
      const g = rngFor(SEED, r.key, serial);
      const variant = Math.floor(g() * r.variants.length);
      const rarity = rarityOf(seed, serial);
      // Bought in order of serial, spread over the sale (most of it in the first hours).
      const boughtAt = Math.min(soldUntil - 1000, p.saleStartAt + Math.floor((soldUntil - p.saleStartAt) * Math.pow(serial / (p.sold + 1), 3)));
      const minter = collectorIndex(g);
      let owner = minter;
      let acquiredAt = boughtAt;
      let lastPrice = p.priceFen;
      const gi = goods.length;
      actions.push({ goodsIndex: gi, action: 'mint', fromIndex: null, toIndex: minter, priceFen: p.priceFen, at: boughtAt });
      prices.push({ goodsIndex: gi, priceFen: p.priceFen, at: boughtAt });
      const tradableFrom = boughtAt + p.holdingDays * DAY;
      // Some changed hands on the market since.
      if (tradableFrom < now - DAY && g() < 0.18 + rarity * 0.08) {
        const trades = 1 + (g() < 0.3 ? 1 : 0);
        for (let t = 0; t < trades; t++) {
          const at = acquiredAt + p.holdingDays * DAY + Math.floor(g() * Math.max(HOUR, now - DAY - (acquiredAt + p.holdingDays * DAY)));
          if (at >= now - HOUR) break;
          const buyer = collectorIndex(g);
          if (buyer === owner) continue;
          const price = Math.round((lastPrice * (0.9 + g() * (1.2 + rarity))) / 100) * 100;
          actions.push({ goodsIndex: gi, action: 'list', fromIndex: owner, toIndex: null, priceFen: price, at: at - randInt(g, 1, 48) * HOUR });
          actions.push({ goodsIndex: gi, action: 'sale', fromIndex: owner, toIndex: buyer, priceFen: price, at });
          prices.push({ goodsIndex: gi, priceFen: price, at });
          owner = buyer;
          acquiredAt = at;
          lastPrice = price;
        }
      }
      // Some are listed on the market now.
      let status: 'held' | 'on_sale' = 'held';
      let salePrice: number | null = null;
      let listedAt: number | null = null;
      const canListFrom = acquiredAt + p.holdingDays * DAY;
      if (canListFrom < now - HOUR && g() < (r.state === 'on_sale' ? 0.05 : 0.12) + rarity * 0.04) {
        status = 'on_sale';
        salePrice = Math.max(100, Math.round((lastPrice * (1 + g() * (0.8 + rarity))) / 100) * 100);
        listedAt = Math.max(canListFrom, now - Math.floor(g() * 7 * DAY));
        actions.push({ goodsIndex: gi, action: 'list', fromIndex: owner, toIndex: null, priceFen: salePrice, at: listedAt });
      }
      goods.push({
        projectIndex: pi,
        serial,
        tokenId: p.tokenStart + serial - 1,
        ownerIndex: owner,
        name: `${r.short}·${r.variants[variant]} #${String(serial).padStart(digits, '0')}`,
        image: imageUrl(imageId('g', r.style, seed, variant, serial)),
        attributes: JSON.stringify([
          { trait: '系列', value: r.name },
          { trait: '形象', value: r.variants[variant] },
          { trait: '稀有度', value: RARITIES[rarity] },
          { trait: '背景', value: pick(g, BACKGROUNDS) },
        ]),
        status,
        salePriceFen: salePrice,
        listedAt,
        lastPriceFen: lastPrice,
        acquiredAt,
        createdAt: boughtAt,
      });
    }
  });

  // News: the fixed articles, one announcement per release, one story per creator.
  const news: DemoNews[] = [];
  const day0 = Math.floor(now / HOUR) * HOUR;
  ARTICLES.forEach((a, i) => {
    news.push({
      title: a.title,
      cover: imageUrl(imageId('n', i % 8, hashString(a.title))),
      summary: a.summary,
      contentHtml: sanitizeRichText(a.html),
      category: a.category,
      author: a.author,
      isHot: Boolean(a.hot),
      isPlace: a.place !== undefined,
      placeSort: a.place ?? 0,
      publishedAt: day0 - a.daysAgo * DAY + randInt(rng, 9, 18) * HOUR - 24 * HOUR,
    });
  });
  projects.forEach((p, i) => {
    const r = RELEASES[i]!;
    const creator = CREATORS[p.creatorIndex]!.name;
    const link = `<p><a href="/projects/detail/{PROJECT_${i}}">查看「${escapeHtml(p.name)}」系列详情</a></p>`;
    let title: string;
    let summary: string;
    let body: string;
    let publishedAt: number;
    if (r.state === 'sold_out') {
      title = `「${p.name}」已全部售罄`;
      summary = `${creator}作品「${p.name}」${p.supply.toLocaleString('zh-CN')} 份已全部售出，感谢各位藏友的支持。`;
      body = `<p>${escapeHtml(summary)}</p><p>持有满 ${r.holdingDays} 天后，藏品可在寄售市场流转。请通过平台内的寄售市场进行交易，谨防场外交易风险。</p>`;
      publishedAt = p.saleStartAt + randInt(rng, 2, 20) * HOUR;
    } else if (r.state === 'ended') {
      title = `「${p.name}」发售结束公告`;
      summary = `「${p.name}」首发已于${fmtDate(p.saleEndAt!)}结束，共售出 ${p.sold.toLocaleString('zh-CN')} 份，未售出部分不再发行。`;
      body = `<p>${escapeHtml(summary)}</p><p>已购藏品可在“个人中心 - 我的藏品”中查看，寄售市场已同步开放该系列。</p>`;
      publishedAt = p.saleEndAt! + randInt(rng, 1, 12) * HOUR;
    } else {
      title = `「${p.name}」发售公告`;
      summary = `${creator}全新系列「${p.name}」将于${fmtDate(p.saleStartAt)}开售，限量 ${p.supply.toLocaleString('zh-CN')} 份，发售价 ${yuan(p.priceFen)}。`;
      body = `<p>${escapeHtml(summary)}</p><p>${escapeHtml(r.story)}</p><h3>参与方式</h3><ol><li>完成实名认证并连接钱包；</li><li>开售后进入系列详情页点击“立即购买”；</li><li>支付成功后藏品将在数分钟内到账。</li></ol>`;
      publishedAt = Math.min(now - HOUR, p.saleStartAt - randInt(rng, 1, 3) * DAY);
    }
    news.push({
      title,
      cover: p.cover,
      summary,
      contentHtml: body + link,
      category: '发售日历',
      author: '平台运营中心',
      isHot: r.state === 'on_sale' || r.state === 'upcoming_soon',
      isPlace: false,
      placeSort: 0,
      publishedAt,
    });
  });
  CREATORS.forEach((c, i) => {
    const works = RELEASES.filter((r) => r.creator === c.key).map((r) => `「${r.name}」`).join('、');
    const html = `<p>${escapeHtml(c.intro)}</p>
<h3>关于创作</h3>
<p>问：最初是怎样开始数字艺术创作的？</p><p>答：我们一直在想，传统题材怎样才能被更多年轻人看到。数字藏品给了作品一个可以被收藏、被讨论的载体，每一件作品都有独立编号，这让“限量”和“唯一”有了真实的意义。</p>
<p>问：在平台发布过哪些作品？</p><p>答：目前在平台发布了${escapeHtml(works)}，接下来还会围绕同一主题持续创作。</p>
<p>问：想对藏友说些什么？</p><p>答：希望大家收藏的是自己真正喜欢的作品，理性收藏，也欢迎在社区里和我们交流创作背后的故事。</p>`;
    news.push({
      title: `对话${c.name}：让传统在屏幕上生长`,
      cover: imageUrl(imageId('n', c.style, hashString(`story:${c.key}`))),
      summary: `本期创作者故事走近${c.name}，聊聊他们的创作理念与在平台发布的作品。`,
      contentHtml: sanitizeRichText(html),
      category: '创作者故事',
      author: '编辑部',
      isHot: i < 2,
      isPlace: false,
      placeSort: 0,
      publishedAt: day0 - (10 + i * 7) * DAY + 10 * HOUR,
    });
  });
  news.sort((a, b) => a.publishedAt - b.publishedAt);

  const pIndex = (key: string) => projects.findIndex((p) => p.key === key);
  const nIndex = (title: string) => news.findIndex((n) => n.title === title);
  const bannerImage = (key: string) => {
    const r = RELEASES.find((x) => x.key === key)!;
    return imageUrl(imageId('b', r.style, hashString(`banner:${key}`)));
  };
  const banners: DemoBanner[] = [
    { position: 'home', title: '水墨十二生肖 火热发售中', subtitle: '墨池山房 · 写意生肖 · 限量发行', image: bannerImage('shengxiao'), linkType: 'project', linkIndex: pIndex('shengxiao'), sort: 1 },
    { position: 'home', title: '星野·像素猫咖 即将开售', subtitle: '七种猫咪 · 随机配色 · 倒计时进行中', image: bannerImage('maoka'), linkType: 'project', linkIndex: pIndex('maoka'), sort: 2 },
    { position: 'home', title: '未来城市2077', subtitle: '霓虹永不熄灭的城市天际线', image: bannerImage('city2077'), linkType: 'project', linkIndex: pIndex('city2077'), sort: 3 },
    { position: 'home', title: '寄售市场交易规则', subtitle: '持有期、服务费与挂单说明', image: imageUrl(imageId('b', 3, hashString('banner:rules'))), linkType: 'news', linkIndex: nIndex('寄售市场交易规则（试行）'), sort: 4 },
    { position: 'projects', title: '二十四节气·夏 预告', subtitle: '节气研究所 · 夏季六节气', image: bannerImage('jieqi-xia'), linkType: 'project', linkIndex: pIndex('jieqi-xia'), sort: 1 },
    { position: 'projects', title: '山海经·异兽录', subtitle: '已售罄 · 寄售市场可购', image: bannerImage('shanhai'), linkType: 'project', linkIndex: pIndex('shanhai'), sort: 2 },
    { position: 'market', title: '机械锦鲤 寄售专场', subtitle: '五大品系 · 好运常在', image: bannerImage('jinli'), linkType: 'project', linkIndex: pIndex('jinli'), sort: 1 },
    { position: 'market', title: '入驻创作者：节气研究所', subtitle: '把时间收藏起来', image: imageUrl(imageId('b', 6, hashString('banner:jieqi'))), linkType: 'creator', linkIndex: CREATORS.findIndex((c) => c.key === 'jieqi'), sort: 2 },
    { position: 'news', title: '平台正式上线', subtitle: '首批六位创作者入驻', image: imageUrl(imageId('b', 2, hashString('banner:launch'))), linkType: 'news', linkIndex: nIndex('关于数字藏品平台正式上线的公告'), sort: 1 },
    { position: 'news', title: '防范诈骗提示', subtitle: '平台客服不会索要验证码', image: imageUrl(imageId('b', 4, hashString('banner:safety'))), linkType: 'news', linkIndex: nIndex('关于防范诈骗及场外交易风险的提示'), sort: 2 },
    { position: 'news', title: '新手指南：连接钱包', subtitle: '三步完成钱包连接', image: imageUrl(imageId('b', 7, hashString('banner:wallet'))), linkType: 'news', linkIndex: nIndex('什么是数字钱包？如何连接钱包'), sort: 3 },
  ];

  const onSale = goods.map((g, i) => ({ g, i })).filter((x) => x.g.status === 'on_sale');
  const hot = [...onSale].sort((a, b) => b.g.salePriceFen! - a.g.salePriceFen! || a.i - b.i).slice(0, 8);
  const rare = onSale.filter((x) => JSON.parse(x.g.attributes)[2].value !== RARITIES[0]).slice(0, 6);
  const recommends: DemoRecommend[] = [
    {
      code: 'home_recommend',
      title: '精选推荐',
      sort: 1,
      items: ['shengxiao', 'maoka', 'city2077', 'jieqi-xia', 'shanhai'].map((k) => ({ type: 'project' as const, index: pIndex(k) })),
    },
    { code: 'home_hot', title: '热门藏品', sort: 2, items: hot.map((x) => ({ type: 'goods' as const, index: x.i })) },
    { code: 'home_creators', title: '入驻创作者', sort: 3, items: CREATORS.map((_, i) => ({ type: 'creator' as const, index: i })) },
    { code: 'market_featured', title: '市场精选', sort: 4, items: rare.map((x) => ({ type: 'goods' as const, index: x.i })) },
  ];

  return { users, creators, projects, goods, actions, prices, news, banners, recommends };
}
