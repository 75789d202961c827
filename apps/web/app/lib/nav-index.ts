/**
 * Personal-center navigation index by path: base 0, txn-details 1, my-sale 2,
 * account-settings 3, payment pages 4, message-center 5, follow 6, invite 7, contact-service 8,
 * default 0.
 */
const PAYMENT_SEGMENTS = ['payment', 'payment-management', 'paymentyibao', 'conmponents/alipay', 'conmponents/pamentsuccess', 'conmponents/payment2', 'conmponents/payment3', 'conmponents/paymentcard'];
const BY_SEGMENT: Record<string, number> = {
  'txn-details': 1,
  'my-sale': 2,
  'account-settings': 3,
  'message-center': 5,
  follow: 6,
  invite: 7,
  'contact-service': 8,
};

export function navIndexFor(pathname: string): number {
  const rest = pathname.toLowerCase().replace(/^\/personal-center\/?/, '').replace(/\/+$/, '');
  if (rest === '') return 0;
  if (rest in BY_SEGMENT) return BY_SEGMENT[rest]!;
  if (PAYMENT_SEGMENTS.includes(rest)) return 4;
  return 0;
}

/** The personal-center menu, in index order (payment's entry page is /personal-center/payment). */
export const PC_MENU = [
  { index: 0, path: '/personal-center', key: 'assets' },
  { index: 1, path: '/personal-center/txn-details', key: 'txnDetails' },
  { index: 2, path: '/personal-center/my-sale', key: 'mySale' },
  { index: 3, path: '/personal-center/account-settings', key: 'accountSettings' },
  { index: 4, path: '/personal-center/payment', key: 'payment' },
  { index: 5, path: '/personal-center/message-center', key: 'messageCenter' },
  { index: 6, path: '/personal-center/follow', key: 'follow' },
  { index: 7, path: '/personal-center/invite', key: 'invite' },
  { index: 8, path: '/personal-center/contact-service', key: 'contactService' },
] as const;
