import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';
import { HELP_PAGES } from './config.ts';

/**
 * Every route. Layouts: home (header theme 1 + footer + side index), main (header
 * theme 2 + footer + side index + reload), nav (header only). One module per route in routes/.
 */
export default [
  layout('layouts/home.tsx', [index('routes/home.tsx')]),

  layout('layouts/main.tsx', [
    route('projects', 'routes/projects.tsx'),
    route('projects/detail/:id?', 'routes/projects.detail.tsx'),
    route('projects/dropping/:id?', 'routes/projects.dropping.tsx'),
    route('projects/mint/:id?', 'routes/projects.mint.tsx'),
    // A blind-box release's odds and draw proof (issue #10, docs/drops.md "Blind boxes").
    route('projects/box/:id', 'routes/projects.box.tsx'),
    // The public proof of a release's lottery (issue #10 fair drop, docs/drops.md "Lottery").
    route('projects/lottery/:id', 'routes/projects.lottery.tsx'),
    route('assets', 'routes/assets.tsx'),
    route('assets/:id', 'routes/assets.detail.tsx'),
    route('sales', 'routes/sales.tsx'),
    route('news', 'routes/news.tsx'),
    route('news/:id', 'routes/news.detail.tsx'),
    route('project-enter', 'routes/project-enter.tsx'),
    route('creator/:id?', 'routes/creator.tsx'),
    route('download', 'routes/download.tsx'),
    route('search-object', 'routes/search-object.tsx'),
    // The nine help pages share one module; each has its own route id.
    ...HELP_PAGES.map((p) => route(`help/${p.slug}`, 'routes/help.tsx', { id: `help-${p.slug}` })),

    route('personal-center', 'layouts/personal-center.tsx', [
      index('routes/personal-center.assets.tsx'),
      route('txn-details', 'routes/personal-center.txn-details.tsx'),
      route('my-sale', 'routes/personal-center.my-sale.tsx'),
      route('account-settings', 'routes/personal-center.account-settings.tsx'),
      route('payment', 'routes/personal-center.payment.tsx'),
      route('payment-management', 'routes/personal-center.payment-management.tsx'),
      route('paymentYibao', 'routes/personal-center.payment-yibao.tsx'),
      route('message-center', 'routes/personal-center.message-center.tsx'),
      route('follow', 'routes/personal-center.follow.tsx'),
      route('invite', 'routes/personal-center.invite.tsx'),
      route('contact-service', 'routes/personal-center.contact-service.tsx'),
      route('make', 'routes/personal-center.make.tsx'),
      // Fragments and compose (issue #10, docs/drops.md "Compose").
      route('compose', 'routes/personal-center.compose.tsx'),
      route('conmponents/alipay', 'routes/personal-center.alipay.tsx'),
      route('conmponents/pamentSuccess', 'routes/personal-center.payment-success.tsx'),
      route('conmponents/Payment2', 'routes/personal-center.payment2.tsx'),
      route('conmponents/Payment3', 'routes/personal-center.payment3.tsx'),
      route('conmponents/PaymentCard', 'routes/personal-center.payment-card.tsx'),
    ]),

    // Full-page login / register / forgot password (features/auth/pages); any other /account path is a 404 (below).
    route('account/login', 'routes/account.login.tsx'),
    route('account/register', 'routes/account.register.tsx'),
    route('account/forgot-password', 'routes/account.forgot-password.tsx'),
    // Unknown routes: the loader throws a real 404.
    route('*', 'routes/not-found.tsx'),
  ]),

  layout('layouts/nav.tsx', [
    route('mint', 'routes/mint.tsx'),
    route('object-buy', 'routes/object-buy.tsx'),
    route('object-buy/conponents/card', 'routes/object-buy.card.tsx'),
    route('pay', 'routes/pay.tsx'),
  ]),

  // The operations console (docs/admin.md): its own layout (no public header / footer), noindex,
  // data fetched in the browser with the staff token; every page is its own lazy chunk.
  route('admin/login', 'routes/admin.login.tsx'),
  route('admin', 'routes/admin.tsx', [
    index('routes/admin.dashboard.tsx'),
    route('users', 'routes/admin.users.tsx'),
    route('applications', 'routes/admin.applications.tsx'),
    route('kyc', 'routes/admin.kyc.tsx'),
    route('tickets', 'routes/admin.tickets.tsx'),
    route('orders', 'routes/admin.orders.tsx'),
    route('withdrawals', 'routes/admin.withdrawals.tsx'),
    route('staff', 'routes/admin.staff.tsx'),
    route('audit', 'routes/admin.audit.tsx'),
    // The catalogue and content editors (docs/admin.md "Catalogue and content").
    route('creators', 'routes/admin.creators.tsx'),
    route('release-reviews', 'routes/admin.release-reviews.tsx'),
    route('releases', 'routes/admin.releases.tsx'),
    route('news', 'routes/admin.news.tsx'),
    route('banners', 'routes/admin.banners.tsx'),
  ]),
] satisfies RouteConfig;
