import { matchRoutes } from 'react-router';
import type { Messages } from './zh.ts';

/** A top-level section of the catalog (`'market'` of `t('market.bids.days')`). */
export type Section = keyof Messages;

/**
 * The catalog split into namespaces: each top-level section of zh.ts / en.ts belongs to exactly one.
 * A page gets `common` (the shell: header, footer, error page, login overlay, wallet dialog, page
 * titles) plus the namespaces its route lists in ROUTE_NAMESPACES, so its HTML carries only those
 * strings. Keys keep their full names (`t('market.bids.days')`), whichever namespace holds them.
 */
export const NAMESPACES = {
  common: [
    'app', 'nav', 'header', 'lang', 'footer', 'service', 'backToTop', 'common', 'network', 'devMode', 'error', 'session', 'wallet',
    'pages', 'help', 'auth', 'captcha', 'legal', 'search', 'listing', 'messageCenter', 'media', 'placeholder', 'pwa',
  ],
  catalog: ['catalog', 'home', 'homeModules', 'content', 'searchPage', 'share', 'chain'],
  /** Orders, drop orders and payment go together: order texts pick `orders` or `drops` by the order kind. */
  trade: ['orders', 'drops', 'payment'],
  phases: ['phases'],
  boxes: ['boxes', 'proofBlock'],
  market: ['market', 'goodsFlow', 'shift', 'compose'],
  account: ['security', 'privacy', 'realname', 'settings', 'invite'],
  personal: ['pc', 'personal'],
  tickets: ['tickets'],
  payout: ['payout'],
  creators: ['creators'],
  studio: ['studio'],
  settled: ['settled'],
  download: ['download'],
} as const satisfies Record<string, readonly Section[]>;

export type Namespace = keyof typeof NAMESPACES;

/** Compile-time check: a section missing from NAMESPACES is a type error here. */
type Unassigned = Exclude<Section, (typeof NAMESPACES)[Namespace][number]>;
const everySectionAssigned: [Unassigned] extends [never] ? true : Unassigned = true;
void everySectionAssigned;

const PC = ['personal', 'tickets'] as const;
const PC_PAY = [...PC, 'catalog', 'trade', 'account'] as const;
const DROP = ['catalog', 'trade', 'market', 'phases'] as const;
const ADMIN = ['catalog', 'creators', 'trade', 'tickets'] as const;

/**
 * What each route needs besides `common`, by the route's path pattern (app/routes.ts). The root loader
 * sends these namespaces with the page; a client navigation to a route whose namespaces the browser
 * does not have yet revalidates the root loader, which sends them with the route data before the page
 * renders (root.tsx `shouldRevalidate`). A path no pattern matches (a 404) gets `common` only.
 * test/i18n-namespaces.test.ts checks that every route's modules use only keys of these namespaces.
 */
export const ROUTE_NAMESPACES: Record<string, readonly Namespace[]> = {
  '/': ['catalog'],
  '/projects': ['catalog'],
  '/projects/detail/:id?': ['catalog', 'boxes'],
  '/projects/dropping/:id?': DROP,
  '/projects/mint/:id?': DROP,
  '/projects/box/:id': ['boxes'],
  '/projects/lottery/:id': ['phases', 'boxes'],
  '/assets': [],
  '/assets/:id': ['catalog', 'market'],
  '/sales': ['catalog', 'market'],
  '/news': ['catalog'],
  '/news/:id': ['catalog'],
  '/project-enter': ['settled'],
  '/creator/:id?': ['catalog', 'creators', 'account'],
  '/download': ['download'],
  '/search-object': ['catalog'],
  '/help/*': [],
  '/personal-center': [...PC, 'market', 'boxes'],
  '/personal-center/txn-details': [...PC, 'catalog', 'trade', 'market'],
  '/personal-center/my-sale': [...PC, 'market'],
  '/personal-center/account-settings': [...PC, 'account'],
  '/personal-center/payment': [...PC, 'trade', 'payout', 'account'],
  '/personal-center/payment-management': [...PC, 'payout', 'account'],
  '/personal-center/paymentYibao': [...PC, 'payout', 'account'],
  '/personal-center/message-center': [...PC, 'account'],
  '/personal-center/follow': [...PC, 'creators'],
  '/personal-center/invite': [...PC, 'account'],
  '/personal-center/contact-service': PC,
  '/personal-center/make': [...PC, 'catalog', 'creators', 'studio'],
  '/personal-center/compose': [...PC, 'market'],
  '/personal-center/conmponents/alipay': PC_PAY,
  '/personal-center/conmponents/pamentSuccess': PC_PAY,
  '/personal-center/conmponents/Payment2': PC_PAY,
  '/personal-center/conmponents/Payment3': PC_PAY,
  '/personal-center/conmponents/PaymentCard': PC_PAY,
  '/account/login': [],
  '/account/register': [],
  '/account/forgot-password': [],
  '/mint': ['catalog', 'phases'],
  '/object-buy': ['catalog', 'trade', 'market', 'account'],
  '/object-buy/conponents/card': ['catalog', 'trade', 'market', 'account'],
  '/pay': ['catalog', 'trade', 'account'],
  '/admin/login': [],
  '/admin/*': ADMIN,
  '/admin/releases': [...ADMIN, 'market', 'phases'],
};

const table = Object.keys(ROUTE_NAMESPACES).map((path) => ({ path }));

/** The namespaces a page at `pathname` needs: `common` and those of its route (matched like the router ranks routes). */
export function namespacesForPath(pathname: string): Namespace[] {
  const path = pathname === '/_root.data' ? '/' : pathname.replace(/\.data$/, '');
  const match = matchRoutes(table, path)?.at(-1);
  const own = match ? (ROUTE_NAMESPACES[match.route.path] ?? []) : [];
  return ['common', ...own.filter((ns, i) => own.indexOf(ns) === i)];
}

/** The sections of `catalog` that belong to `namespaces`. */
export function pickNamespaces<T extends Record<string, unknown>>(catalog: T, namespaces: readonly Namespace[]): Partial<T> {
  const out: Partial<T> = {};
  for (const ns of namespaces) for (const section of NAMESPACES[ns]) if (section in catalog) out[section as keyof T] = catalog[section as keyof T];
  return out;
}
