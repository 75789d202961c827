import type { Messages } from './zh.ts';

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/**
 * The few texts the root error page needs when the root loader itself failed (e.g. the
 * unsupported-language 404), so no catalog arrived. zh is the default language.
 */
export const fallbackMessages: DeepPartial<Messages> = {
  app: { name: 'CFX Art', tagline: '数字藏品交易平台', defaultDescription: 'CFX Art 数字藏品平台' },
  error: { sorry: '抱歉！', notFound: 'This page could not be found', generic: '页面出错了，请稍后再试', backHome: '返回首页', title: '出错了' },
  pages: { notFound: { title: '页面不存在', description: 'This page could not be found' } } as DeepPartial<Messages['pages']>,
  common: { close: '关闭' } as DeepPartial<Messages['common']>,
};
