import { describe, expect, it } from 'vitest';
import { navIndexFor } from '../app/lib/nav-index.ts';

describe('personal-center navigation index', () => {
  it.each([
    ['/personal-center', 0],
    ['/personal-center/', 0],
    ['/personal-center/txn-details', 1],
    ['/personal-center/my-sale', 2],
    ['/personal-center/account-settings', 3],
    ['/personal-center/payment', 4],
    ['/personal-center/payment-management', 4],
    ['/personal-center/paymentYibao', 4],
    ['/personal-center/conmponents/alipay', 4],
    ['/personal-center/conmponents/pamentSuccess', 4],
    ['/personal-center/conmponents/Payment2', 4],
    ['/personal-center/conmponents/Payment3', 4],
    ['/personal-center/conmponents/PaymentCard', 4],
    ['/personal-center/message-center', 5],
    ['/personal-center/follow', 6],
    ['/personal-center/invite', 7],
    ['/personal-center/contact-service', 8],
    ['/personal-center/make', 0],
  ])('%s → %i', (path, index) => {
    expect(navIndexFor(path)).toBe(index);
  });
});
