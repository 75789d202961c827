import { describe, expect, it } from 'vitest';
import { formatCardInput } from '../app/features/payout/components/bind-card-dialog.tsx';
import { yuanToFen } from '../app/features/payout/components/withdraw-panel.tsx';
import { PAYOUT } from '../app/features/payout/api/paths.ts';
import { SKIP_DEFAULT_ERROR } from '../app/lib/api.ts';

/** Money-out input helpers of the web (the server checks everything again). */
describe('money-out inputs', () => {
  it('groups a card number by four as it is typed, digits only, at most 19', () => {
    expect(formatCardInput('6222020200112233446')).toBe('6222 0202 0011 2233 446');
    expect(formatCardInput('6222-0202 abc 0011')).toBe('6222 0202 0011');
    expect(formatCardInput('62220202001122334469999')).toBe('6222 0202 0011 2233 446');
    expect(formatCardInput('')).toBe('');
  });

  it('reads a yuan amount as integer fen, refusing more than two decimals', () => {
    expect(yuanToFen('100')).toBe(10_000);
    expect(yuanToFen('0.1')).toBe(10);
    expect(yuanToFen('12.34')).toBe(1234);
    expect(yuanToFen('12.')).toBe(1200);
    expect(yuanToFen('12.345')).toBeNull();
    expect(yuanToFen('1e3')).toBeNull();
    expect(yuanToFen('')).toBeNull();
    // 0.1 + 0.2 style float errors cannot happen: the digits are read, not multiplied
    expect(yuanToFen('0.29')).toBe(29);
  });

  it('the account query and merchant detail skip the default error message', () => {
    expect(SKIP_DEFAULT_ERROR.some((p) => PAYOUT.querySecondAccount.includes(p))).toBe(true);
    expect(SKIP_DEFAULT_ERROR.some((p) => PAYOUT.getSecondMerchantDetail.includes(p))).toBe(true);
  });
});
