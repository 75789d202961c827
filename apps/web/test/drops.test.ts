/** Pure parts of the drop pages: where a drop order links to and which status texts it uses (both catalogs). */
import { describe, expect, it } from 'vitest';
import { goodsPath, textGroup } from '../app/lib/orders/status.ts';
import { translate } from '../app/i18n/index.ts';
import { zh } from '../app/i18n/zh.ts';
import { en } from '../app/i18n/en.ts';

describe('drop orders in the order views', () => {
  it('link to the release until the first collectible exists, then to it; market orders link to their collectible', () => {
    expect(goodsPath({ kind: 'drop', goods: { id: 0 }, drop: { projectId: 7 } })).toBe('/projects/dropping/7');
    expect(goodsPath({ kind: 'drop', goods: { id: 42 }, drop: { projectId: 7 } })).toBe('/assets/42');
    expect(goodsPath({ kind: 'market', goods: { id: 5 }, drop: null })).toBe('/assets/5');
  });

  it('use the drops texts (minting instead of settling) in both languages', () => {
    expect(textGroup('drop')).toBe('drops');
    expect(textGroup('bid')).toBe('orders');
    expect(translate(zh, `${textGroup('drop')}.headline.settling`)).toBe('藏品铸造中');
    expect(translate(en, `${textGroup('drop')}.headline.completed`)).toBe('Purchase completed');
    expect(translate(zh, 'drops.limitLine', { limit: 5, bought: 2, remaining: 3 })).toBe('每人限购 5 份，已购 2 份，还可购买 3 份');
    expect(translate(zh, 'orders.kinds.drop')).toBe('首发购买');
  });
});
