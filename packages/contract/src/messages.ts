/**
 * Server messages in both languages. The English texts are the spec's exact texts (§8);
 * the server answers in the language of the `lang` header/cookie (default zh).
 */
export const serverMessages = {
  ok: { zh: '成功', en: 'success' },
  smsSent: { zh: '发送成功', en: 'sent successfully' },
  codeVerified: { zh: '验证通过', en: 'verification passed' },
  loginOk: { zh: '登录成功', en: 'login successful' },
  registerOk: {
    zh: '注册成功，请在个人中心-账户设置中修改头像和昵称',
    en: 'registered successfully, please change avatar and nickname in personal center - account settings',
  },
  resetOk: { zh: '修改成功，请登录', en: 'changed successfully, please log in' },
  logoutOk: { zh: '已退出登录', en: 'logged out' },
  passwordRule: { zh: '请输入6-20位数字、字母和符号', en: 'please enter 6-20 characters of digits, letters and symbols' },
  notRegistered: { zh: '该手机号未注册', en: 'this phone number is not registered' },
  alreadyRegistered: { zh: '该手机号已注册，请直接登录', en: 'this phone number is already registered, please log in' },
  tokenFailed: { zh: '登录token校验失败', en: 'login token verification failed' },
  sessionLost: { zh: '未登录或登录失效，请先登录！', en: 'not logged in or session expired, please log in first!' },
  badMobile: { zh: '手机号输入有误', en: 'phone number entered incorrectly.' },
  badSmsCode: { zh: '验证码错误或已失效', en: 'verification code incorrect or expired' },
  smsCodeLocked: { zh: '验证码错误次数过多，请重新获取', en: 'too many wrong codes, please request a new one' },
  badCredentials: { zh: '手机号或密码错误', en: 'phone number or password incorrect' },
  badCaptcha: { zh: '请先完成滑块验证', en: 'please complete the slider verification first' },
  captchaFailed: { zh: '验证失败，请重试', en: 'verification failed, please try again' },
  smsTooSoon: { zh: '发送过于频繁，请{s}秒后再试', en: 'too many requests, please try again in {s} seconds' },
  smsDailyCap: { zh: '今日发送次数已达上限，请明天再试', en: 'daily limit reached, please try again tomorrow' },
  loginLocked: { zh: '登录尝试过于频繁，请{m}分钟后再试', en: 'too many login attempts, please try again in {m} minutes' },
  badInviteCode: { zh: '邀请码不存在', en: 'invite code does not exist' },
  badNickname: { zh: '昵称需为1-16个字符', en: 'nickname must be 1-16 characters' },
  badProfpic: { zh: '头像不存在', en: 'avatar does not exist' },
  badParams: { zh: '请求参数错误', en: 'invalid request parameters' },
  notFound: { zh: '接口不存在', en: 'endpoint not found' },
  serverError: { zh: '服务繁忙，请稍后再试', en: 'service busy, please try again later' },
  walletNeedLogin: { zh: '请先登录，再连接钱包', en: 'please log in first, then link a wallet' },
  walletBadAddress: { zh: '请使用Conflux正式网（cfx:开头）的钱包地址', en: 'please use a Conflux main network (cfx:) wallet address' },
  walletBadSignature: { zh: '钱包签名校验失败', en: 'wallet signature verification failed' },
  walletChallengeExpired: { zh: '签名请求已过期，请重试', en: 'the signature request has expired, please try again' },
  walletTaken: { zh: '该钱包已绑定其他账户', en: 'this wallet is already linked to another account' },
  walletOtherLinked: { zh: '您的账户已绑定其他钱包', en: 'your account is already linked to another wallet' },
  walletLinked: { zh: '钱包连接成功', en: 'wallet linked' },
  realnameBadName: { zh: '请输入正确的姓名', en: 'please enter your correct name' },
  realnameBadId: { zh: '请输入正确的18位身份证号码', en: 'please enter a correct 18-digit ID number' },
  realnameUnderage: { zh: '未满18周岁，无法完成实名认证', en: 'you must be 18 or older to verify your real name' },
  realnameMismatch: { zh: '姓名与身份证号码不匹配', en: 'the name does not match the ID number' },
  realnameAlready: { zh: '您已完成实名认证', en: 'your real name is already verified' },
  realnameIdUsed: { zh: '该身份证号码已被其他账户认证', en: 'this ID number is already verified for another account' },
  realnameOk: { zh: '实名认证成功', en: 'real-name verification successful' },
  kycUnavailable: { zh: '实名认证服务暂不可用，请稍后再试', en: 'the verification service is unavailable, please try again later' },
  tradeNeedRealname: { zh: '请先完成实名认证', en: 'please verify your real name first' },
  tradeUnderage: { zh: '未满18周岁不能交易', en: 'you must be 18 or older to trade' },
  tradeNeedWallet: { zh: '请先连接钱包', en: 'please link a wallet first' },
  devOnly: { zh: '当前环境未开启该功能', en: 'not available in this environment' },
  projectNotFound: { zh: '该发售不存在', en: 'release not found' },
  goodsNotFound: { zh: '该藏品不存在', en: 'collectible not found' },
  newsNotFound: { zh: '该资讯不存在', en: 'news item not found' },
  creatorNotFound: { zh: '该创作者不存在', en: 'creator not found' },
  imageNotFound: { zh: '图片不存在', en: 'image not found' },
  searchTooLong: { zh: '搜索内容最多20个字', en: 'search text is limited to 20 characters' },
} as const;

export type MessageKey = keyof typeof serverMessages;
export type Lang = 'zh' | 'en';
export const LANGS: readonly Lang[] = ['zh', 'en'];
export const DEFAULT_LANG: Lang = 'zh';

export function formatMessage(key: MessageKey, lang: Lang, vars: Record<string, string | number> = {}): string {
  let text: string = serverMessages[key][lang];
  for (const [k, v] of Object.entries(vars)) text = text.replace(`{${k}}`, String(v));
  return text;
}
