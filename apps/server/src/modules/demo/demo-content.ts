/**
 * Texts of the demo catalogue: six creators, twelve releases and the platform's news. Fictional
 * studios and works; the platform facts (real-name verification, 18+, holding periods, commission,
 * wallets on Conflux) match what this marketplace implements.
 */

export interface DemoCreator {
  key: string;
  name: string;
  style: number;
  intro: string;
  links: { type: string; label: string; url: string }[];
}

export const CREATORS: DemoCreator[] = [
  {
    key: 'mochi',
    name: '墨池山房',
    style: 0,
    intro: '墨池山房是一支专注于当代水墨数字化创作的青年艺术团队，成员来自美术学院国画系与交互设计专业。我们尝试用程序生成的笔触与留白，重新讲述《山海经》等古典题材，让传统水墨在屏幕上“活”起来。',
    links: [
      { type: 'weibo', label: '微博', url: 'https://weibo.com/' },
      { type: 'bilibili', label: '哔哩哔哩', url: 'https://space.bilibili.com/' },
    ],
  },
  {
    key: 'dunhuang',
    name: '赛博敦煌实验室',
    style: 2,
    intro: '赛博敦煌实验室由壁画修复师与数字艺术家共同发起，以敦煌石窟的藻井、飞天与色彩体系为灵感，探索传统纹样在数字媒介中的再创作。所有作品的色卡均参考矿物颜料的真实色值。',
    links: [
      { type: 'weibo', label: '微博', url: 'https://weibo.com/' },
      { type: 'website', label: '官网', url: 'https://example.com/' },
    ],
  },
  {
    key: 'pixel',
    name: '星野像素',
    style: 1,
    intro: '星野像素是一位独立像素画师，擅长以 16×16、32×32 的小尺寸画布表现城市与生活。作品中常出现长城、胡同与猫咖，温暖、怀旧，又带一点游戏感。',
    links: [
      { type: 'bilibili', label: '哔哩哔哩', url: 'https://space.bilibili.com/' },
      { type: 'xiaohongshu', label: '小红书', url: 'https://www.xiaohongshu.com/' },
    ],
  },
  {
    key: 'celadon',
    name: '青瓷纪',
    style: 3,
    intro: '青瓷纪关注中国陶瓷史中的器型与釉色，与多位非遗传承人合作，将五大名窑与青花瓷的纹样进行高精度数字化采集，再以生成艺术的方式重新构图。',
    links: [{ type: 'weibo', label: '微博', url: 'https://weibo.com/' }],
  },
  {
    key: 'future',
    name: '未来造物社',
    style: 4,
    intro: '未来造物社是一家以科幻世界观为核心的数字内容工作室，作品涵盖城市概念设计、机械生物与赛博朋克插画，希望用想象力连接东方意象与未来科技。',
    links: [
      { type: 'bilibili', label: '哔哩哔哩', url: 'https://space.bilibili.com/' },
      { type: 'douyin', label: '抖音', url: 'https://www.douyin.com/' },
    ],
  },
  {
    key: 'jieqi',
    name: '节气研究所',
    style: 6,
    intro: '节气研究所以二十四节气为创作主线，每个节气对应一组物候、一种色彩与一段诗词。我们希望每一件藏品都是一张可以收藏的“时间书签”。',
    links: [
      { type: 'weibo', label: '微博', url: 'https://weibo.com/' },
      { type: 'xiaohongshu', label: '小红书', url: 'https://www.xiaohongshu.com/' },
    ],
  },
];

/** How a release sits in time relative to the moment the demo is generated. */
export type DemoState = 'on_sale' | 'upcoming_soon' | 'upcoming' | 'sold_out' | 'ended';

export interface DemoRelease {
  key: string;
  name: string;
  short: string;
  creator: string;
  style: number;
  category: string;
  priceYuan: number;
  supply: number;
  /** Share of the supply sold (sold-out releases sell everything). */
  soldShare: number;
  state: DemoState;
  holdingDays: number;
  variants: string[];
  story: string;
}

export const RELEASES: DemoRelease[] = [
  {
    key: 'shanhai',
    name: '山海经·异兽录',
    short: '山海异兽',
    creator: 'mochi',
    style: 0,
    category: '国风水墨',
    priceYuan: 99,
    supply: 300,
    soldShare: 1,
    state: 'sold_out',
    holdingDays: 0,
    variants: ['九尾狐', '白泽', '毕方', '应龙', '烛龙', '鲲鹏', '朱雀', '麒麟'],
    story: '《山海经》记载了上古先民想象中的奇珍异兽。本系列以水墨山峦为底，将九尾狐、白泽、应龙等八种异兽隐于云烟之间，每一件藏品的山形、落日与飞鸟均由算法独立生成，世间仅此一幅。',
  },
  {
    key: 'shengxiao',
    name: '水墨十二生肖',
    short: '水墨生肖',
    creator: 'mochi',
    style: 0,
    category: '国风水墨',
    priceYuan: 59,
    supply: 240,
    soldShare: 0.6,
    state: 'on_sale',
    holdingDays: 0,
    variants: ['子鼠', '丑牛', '寅虎', '卯兔', '辰龙', '巳蛇', '午马', '未羊', '申猴', '酉鸡', '戌狗', '亥猪'],
    story: '十二生肖是中国人最熟悉的时间符号。墨池山房以写意笔法重绘十二生肖，配以四时山水，寓意岁岁平安。本系列为开放式发售，售完即止。',
  },
  {
    key: 'feitian',
    name: '敦煌飞天·数字壁画',
    short: '飞天壁画',
    creator: 'dunhuang',
    style: 2,
    category: '非遗典藏',
    priceYuan: 129,
    supply: 200,
    soldShare: 1,
    state: 'sold_out',
    holdingDays: 0,
    variants: ['反弹琵琶', '飞天散花', '九色鹿', '莲花藻井', '三兔共耳', '伎乐天'],
    story: '飞天是敦煌艺术的标志。本系列参考莫高窟多个时期的壁画构图，以藻井纹样为骨架，重现“反弹琵琶”“三兔共耳”等经典意象，色彩取自石青、石绿、朱砂等传统矿物颜料。',
  },
  {
    key: 'zaojing',
    name: '赛博敦煌·霓虹藻井',
    short: '霓虹藻井',
    creator: 'dunhuang',
    style: 7,
    category: '数字文创',
    priceYuan: 199,
    supply: 150,
    soldShare: 0.7,
    state: 'ended',
    holdingDays: 0,
    variants: ['青金', '朱砂', '石绿', '金箔', '赭石'],
    story: '当千年藻井遇见霓虹灯光，会发生什么？本系列将藻井的几何结构拆解为晶体切面，以五种传统矿物色为主色调，呈现一场古今交错的视觉实验。',
  },
  {
    key: 'changcheng',
    name: '像素长城',
    short: '像素长城',
    creator: 'pixel',
    style: 1,
    category: '像素艺术',
    priceYuan: 39,
    supply: 400,
    soldShare: 1,
    state: 'sold_out',
    holdingDays: 0,
    variants: ['八达岭', '慕田峪', '嘉峪关', '山海关', '居庸关', '司马台', '金山岭'],
    story: '用一格一格的像素，垒起一段段长城。星野像素走访了七处长城关隘，把城楼、垛口与烽火台浓缩成 32×32 的小画布，每件藏品都藏着一个守关小人。',
  },
  {
    key: 'maoka',
    name: '星野·像素猫咖',
    short: '像素猫咖',
    creator: 'pixel',
    style: 1,
    category: '像素艺术',
    priceYuan: 29,
    supply: 300,
    soldShare: 0,
    state: 'upcoming_soon',
    holdingDays: 0,
    variants: ['橘猫', '三花', '狸花', '暹罗', '布偶', '黑猫', '奶牛猫'],
    story: '一家只在像素世界营业的猫咖：橘猫负责招财，三花负责撒娇，黑猫负责守夜。七种猫咪、随机配色，开售后按购买顺序分配编号。',
  },
  {
    key: 'mingyao',
    name: '青瓷纪·宋韵五大名窑',
    short: '宋韵名窑',
    creator: 'celadon',
    style: 3,
    category: '非遗典藏',
    priceYuan: 299,
    supply: 100,
    soldShare: 1,
    state: 'sold_out',
    holdingDays: 0,
    variants: ['汝窑天青', '官窑粉青', '哥窑金丝', '钧窑窑变', '定窑白瓷'],
    story: '“雨过天青云破处，这般颜色做将来。”本系列与陶瓷研究者合作，采集汝、官、哥、钧、定五大名窑代表器物的釉色与纹理，以数字典藏的形式呈现宋代美学。',
  },
  {
    key: 'qinghua',
    name: '青花·缠枝莲',
    short: '青花缠枝',
    creator: 'celadon',
    style: 3,
    category: '非遗典藏',
    priceYuan: 169,
    supply: 120,
    soldShare: 0.5,
    state: 'ended',
    holdingDays: 0,
    variants: ['缠枝莲', '海水江崖', '松竹梅', '云龙纹'],
    story: '青花瓷以钴料在瓷胎上绘画，再罩透明釉高温烧成。本系列选取缠枝莲、海水江崖等四种经典纹样，以圆形开光构图，致敬景德镇的制瓷匠人。',
  },
  {
    key: 'city2077',
    name: '未来城市2077',
    short: '未来城市',
    creator: 'future',
    style: 4,
    category: '未来幻想',
    priceYuan: 88,
    supply: 200,
    soldShare: 0.35,
    state: 'on_sale',
    holdingDays: 0,
    variants: ['霓虹街区', '空中花园', '磁浮站', '数据塔', '雨夜巷'],
    story: '2077 年的城市没有黑夜：霓虹灯牌、磁浮列车与数据塔彻夜闪烁。未来造物社为这座城市绘制了五个街区的天际线，每一扇亮着的窗户都是随机生成的。',
  },
  {
    key: 'jinli',
    name: '机械锦鲤',
    short: '机械锦鲤',
    creator: 'future',
    style: 5,
    category: '未来幻想',
    priceYuan: 66,
    supply: 180,
    soldShare: 1,
    state: 'sold_out',
    holdingDays: 0,
    variants: ['红白', '大正三色', '昭和三色', '黄金', '浅黄'],
    story: '锦鲤寓意好运与坚持。本系列想象了一种由精密机械构成的锦鲤，在数字池塘中游弋。五种经典品系，鳞片与鳍的纹样各不相同。',
  },
  {
    key: 'jieqi-chun',
    name: '二十四节气·春',
    short: '节气春',
    creator: 'jieqi',
    style: 6,
    category: '节气文化',
    priceYuan: 49,
    supply: 240,
    soldShare: 0.8,
    state: 'ended',
    holdingDays: 0,
    variants: ['立春', '雨水', '惊蛰', '春分', '清明', '谷雨'],
    story: '“春雨惊春清谷天。”本系列收录春季六个节气，每幅作品对应一组物候：东风解冻、桃始华、玄鸟至……配色取自早春的嫩绿与桃粉。',
  },
  {
    key: 'jieqi-xia',
    name: '二十四节气·夏',
    short: '节气夏',
    creator: 'jieqi',
    style: 6,
    category: '节气文化',
    priceYuan: 49,
    supply: 240,
    soldShare: 0,
    state: 'upcoming',
    holdingDays: 0,
    variants: ['立夏', '小满', '芒种', '夏至', '小暑', '大暑'],
    story: '“夏满芒夏暑相连。”节气研究所继春季系列之后推出夏季六个节气，以盛夏的蝉鸣、荷塘与麦浪为题，延续“时间书签”的收藏理念。',
  },
];

export const COLLECTOR_NAMES = [
  '云端漫步', '青衫客', '小鹿乱撞', '夜航船', '观山', '听雨眠', '拾光者', '星河长明', '半夏', '知秋',
  '南风知意', '北辰', '一叶舟', '木子李', '橘子汽水', '山止川行', '不语', '晚风', '清欢', '月下独酌',
  '长安故里', '江南客', '柠檬不萌', '白茶清欢', '阿澈', '藏品猎人', '数字旅人', '像素控', '墨染', '青梧',
  '饭团', '远山', '小满', '今夕何夕', '锦鲤本鲤', '三更', '雪落无声', '桃夭', '书生', '星星点灯',
];

export interface DemoArticle {
  title: string;
  category: string;
  author: string;
  summary: string;
  html: string;
  hot?: boolean;
  place?: number;
  /** Days before the generation time. */
  daysAgo: number;
}

/** Articles that do not depend on the generated releases. */
export const ARTICLES: DemoArticle[] = [
  {
    title: '关于数字藏品平台正式上线的公告',
    category: '平台公告',
    author: '平台运营中心',
    place: 1,
    hot: true,
    daysAgo: 60,
    summary: '平台今日正式上线，首批六位创作者、十余个系列将陆续发售，欢迎各位藏友注册体验。',
    html: `<p>亲爱的藏友：</p>
<p>经过数月的筹备与内测，数字藏品平台今日正式上线。平台基于树图区块链（Conflux）发行与流转数字藏品，每一件藏品都拥有唯一的链上编号，归属清晰、可查可验。</p>
<h3>首批上线内容</h3>
<ul><li>首发系列：国风水墨、敦煌文创、像素艺术、非遗典藏、未来幻想、节气文化六大主题；</li><li>寄售市场：持有满规定期限的藏品可在平台内寄售，买卖双方无需持有任何加密货币；</li><li>个人中心：资产管理、交易记录、收款账户与消息通知。</li></ul>
<p>使用平台前请完成实名认证，并仔细阅读《用户协议》与《隐私政策》。平台仅向年满 18 周岁的用户提供购买与交易服务。</p>
<p>感谢您的支持，祝收藏愉快！</p>`,
  },
  {
    title: '实名认证及未成年人保护说明',
    category: '平台公告',
    author: '平台运营中心',
    daysAgo: 58,
    summary: '为保障交易安全，购买、寄售与转赠均需完成实名认证，未满 18 周岁的用户无法进行交易。',
    html: `<p>根据相关法律法规及平台规则，用户在购买、寄售、转赠数字藏品前，须完成以下步骤：</p>
<ol><li>使用本人手机号注册并登录；</li><li>在“个人中心 - 账户设置”中提交本人姓名与身份证号完成实名认证；</li><li>连接本人的数字钱包。</li></ol>
<p><strong>未满 18 周岁的用户无法通过实名认证</strong>，仅可浏览平台内容。身份信息将加密存储，页面展示时做脱敏处理，平台不会向任何第三方出售您的个人信息。</p>
<p>如认证遇到问题，请通过页面右下角的在线客服联系我们。</p>`,
  },
  {
    title: '寄售市场交易规则（试行）',
    category: '平台公告',
    author: '平台运营中心',
    place: 2,
    hot: true,
    daysAgo: 45,
    summary: '寄售市场今日开放：持有期、服务费、挂单与撤单规则一文说明。',
    html: `<p>为维护健康有序的交易环境，寄售市场规则如下：</p>
<h3>一、持有期</h3>
<p>部分系列设有持有期（如 7 天、15 天），自藏品到账之日起计算，持有期内不可寄售或转赠。具体以藏品详情页显示的“可流转时间”为准。</p>
<h3>二、服务费</h3>
<p>寄售成交后，平台将按成交价的一定比例收取服务费，费率在下单前明确展示，卖家实际到账金额 = 成交价 − 服务费。</p>
<h3>三、挂单与撤单</h3>
<ul><li>挂单即授权平台交易合约在成交时转移该藏品，撤单即取消授权；</li><li>同一藏品同一时间只能被一位买家锁定，支付超时订单自动取消；</li><li>成交以链上结算为准，结算完成后藏品进入买家账户。</li></ul>
<p>平台禁止任何形式的炒作、场外交易、洗钱及操纵价格行为，一经发现将限制账户功能。</p>`,
  },
  {
    title: '关于防范诈骗及场外交易风险的提示',
    category: '平台公告',
    author: '平台安全中心',
    place: 3,
    hot: true,
    daysAgo: 30,
    summary: '近期出现冒充平台客服、诱导场外转账的诈骗手法，请藏友提高警惕。',
    html: `<p>近期有不法分子冒充平台客服或“内部人员”，以“低价内购”“代抢名额”“账户异常需要验证”等理由，诱导用户添加私人社交账号并进行场外转账。</p>
<p><strong>请牢记：</strong></p>
<ul><li>平台客服不会以任何理由要求您提供登录密码、短信验证码或钱包助记词；</li><li>所有交易均应在平台内完成，场外交易不受平台保护；</li><li>不存在“内部名额”“保证收益”等说法。</li></ul>
<p>如遇可疑情况，请立即停止操作并通过官方客服渠道核实。</p>`,
  },
  {
    title: '如何注册账号并完成实名认证',
    category: '新手指南',
    author: '新手学堂',
    hot: true,
    daysAgo: 57,
    summary: '三分钟完成注册、登录与实名认证，开启你的数字收藏之旅。',
    html: `<h3>第一步：注册</h3>
<p>点击页面右上角“登录/注册”，输入手机号，完成滑块验证后获取短信验证码，设置 6-20 位由数字、字母或符号组成的密码，勾选用户协议即可完成注册。</p>
<h3>第二步：实名认证</h3>
<p>进入“个人中心 - 账户设置”，填写本人姓名与身份证号。认证通过后，账户将显示“已实名”标识。</p>
<h3>第三步：连接钱包</h3>
<p>点击页面顶部的“连接钱包”，按提示完成授权与签名。连接成功后即可购买与寄售藏品。</p>`,
  },
  {
    title: '什么是数字钱包？如何连接钱包',
    category: '新手指南',
    author: '新手学堂',
    daysAgo: 50,
    summary: '数字钱包是你在区块链上的“身份证”和“保险箱”，本文介绍钱包的作用与连接方法。',
    html: `<p>数字钱包用于管理你在区块链上的地址。平台发行的藏品会记录在你的钱包地址名下，任何人都可以在区块链浏览器上查询其归属。</p>
<h3>连接步骤</h3>
<ol><li>安装支持树图区块链的浏览器钱包（如 Fluent），创建或导入账户；</li><li>确认钱包当前网络为树图正式网（地址以 cfx: 开头）；</li><li>在平台点击“连接钱包”，在钱包弹窗中确认授权，并对平台给出的登录消息进行签名。</li></ol>
<p><strong>安全提示：</strong>助记词和私钥是钱包的唯一凭证，请离线妥善保管，切勿截图或发送给任何人。</p>`,
  },
  {
    title: '购买数字藏品的完整流程',
    category: '新手指南',
    author: '新手学堂',
    daysAgo: 40,
    summary: '从预约、倒计时到支付与到账，一图看懂首发购买流程。',
    html: `<p>首发系列一般在详情页显示开售倒计时。开售后：</p>
<ol><li>进入系列详情页，点击“立即购买”；</li><li>确认订单金额与购买须知，选择支付方式完成支付；</li><li>支付成功后，平台为你铸造藏品，通常在数分钟内到账，可在“个人中心 - 我的藏品”查看。</li></ol>
<p>数字藏品为虚拟商品，一经售出不支持七天无理由退货，请理性消费。</p>`,
  },
  {
    title: '寄售与转赠：藏品流转常见问题',
    category: '新手指南',
    author: '新手学堂',
    daysAgo: 20,
    summary: '为什么我的藏品不能寄售？服务费怎么算？撤单后多久可以再次挂单？',
    html: `<p><strong>问：为什么我的藏品暂时不能寄售？</strong><br>答：该系列可能设有持有期，请在藏品详情页查看“可流转时间”。</p>
<p><strong>问：服务费如何计算？</strong><br>答：按成交价的比例收取，下单前页面会展示费率与预计到账金额。</p>
<p><strong>问：撤单后可以马上再次挂单吗？</strong><br>答：可以。撤单会取消交易合约的授权，重新挂单时需要再次授权。</p>
<p><strong>问：成交后多久到账？</strong><br>答：买家支付成功后，平台在链上完成结算，通常在一分钟内完成。</p>`,
  },
  {
    title: '数字藏品与 NFT 有什么区别？',
    category: '行业资讯',
    author: '编辑部',
    daysAgo: 35,
    summary: '国内的数字藏品强调文化价值与合规流转，与海外以投机为主的 NFT 市场有明显差异。',
    html: `<p>数字藏品是使用区块链技术，对特定的作品、艺术品生成唯一数字凭证，在保护其数字版权的基础上，实现真实可信的数字化发行、购买、收藏和使用。</p>
<p>与海外 NFT 市场相比，国内数字藏品平台普遍采用人民币支付、实名认证、设置持有期等方式，弱化金融属性、强调文化属性。收藏者获得的是作品的数字收藏凭证，作品的著作权仍归创作者所有。</p>
<p>理性收藏、关注作品本身的艺术与文化价值，是数字藏品行业健康发展的基础。</p>`,
  },
  {
    title: '区块链存证：你的藏品如何被记录在链上',
    category: '行业资讯',
    author: '编辑部',
    hot: true,
    daysAgo: 25,
    summary: '藏品编号、合约地址、交易哈希分别代表什么？一文读懂链上信息。',
    html: `<p>在藏品详情页的“链上信息”中，你可以看到以下内容：</p>
<ul><li><strong>合约地址</strong>：发行该系列藏品的智能合约；</li><li><strong>Token ID</strong>：藏品在合约中的唯一编号；</li><li><strong>交易哈希</strong>：每一次铸造、转移在区块链上留下的记录编号。</li></ul>
<p>通过区块链浏览器输入交易哈希，即可查看该笔交易发生的时间、区块与参与地址。这些记录一经确认便无法篡改，这正是数字藏品“唯一性”与“可追溯”的来源。</p>`,
  },
  {
    title: '数字文创助力非遗传承的新尝试',
    category: '行业资讯',
    author: '编辑部',
    daysAgo: 15,
    summary: '从青花瓷纹样到敦煌壁画色卡，越来越多的非遗项目开始借助数字藏品触达年轻人。',
    html: `<p>非物质文化遗产的传承，离不开年轻一代的关注。近年来，不少博物馆、非遗传承人与数字艺术家合作，将传统纹样、技艺与故事转化为数字藏品。</p>
<p>以本平台的“青瓷纪”系列为例，创作团队对五大名窑代表器物的釉色进行了数字化采集，并在藏品介绍中附上了器物背后的历史知识。许多藏友表示，正是因为收藏了一件数字作品，才第一次认真了解了汝窑的“天青色”。</p>
<p>数字化不是替代，而是让传统文化以新的方式被看见。</p>`,
  },
  {
    title: '理性收藏：数字藏品的价值从何而来',
    category: '行业资讯',
    author: '编辑部',
    daysAgo: 8,
    summary: '稀缺性、创作者、文化内涵与社区共识，是判断一件藏品价值的几个维度。',
    html: `<p>面对琳琅满目的系列，如何做出理性的收藏决定？我们建议从以下几个方面考虑：</p>
<ol><li><strong>作品本身</strong>：是否打动你，是否有独特的艺术表达；</li><li><strong>创作者</strong>：创作者的过往作品与持续创作能力；</li><li><strong>文化内涵</strong>：作品背后的故事与知识；</li><li><strong>发行数量</strong>：稀缺性只是维度之一，而非全部。</li></ol>
<p>请勿轻信“稳赚”“翻倍”等宣传，量力而行，理性收藏。</p>`,
  },
];
