import { describe, expect, it } from 'vitest';
import { draftProblem } from '@cfx/contract/studio.ts';
import { bodyOf, emptyForm, formOf, htmlToPlain, percentToPermille, textToHtml } from '../app/features/studio/draft-form.ts';

/** The studio's draft form: yuan → fen, China time → epoch ms, percent → per mille, and back. */
describe('studio draft form', () => {
  it('sends fen, the start read as China time and the royalty per mille; empty fields as null', () => {
    const b = bodyOf({ ...emptyForm(), title: ' 白泽 ', supply: '50', price: '19.90', start: '2027-01-02T20:00', limit: '3', holdingDays: '0', royalty: '7.5', coverKey: 'k' });
    expect(b).toMatchObject({ title: '白泽', supply: 50, priceFen: 1990, saleStartAt: Date.UTC(2027, 0, 2, 12, 0), perIdentityLimit: 3, holdingDays: 0, royaltyPermille: 75, coverKey: 'k' });
    expect(bodyOf({ ...emptyForm(), supply: '', price: '', start: '', royalty: '' })).toMatchObject({ supply: null, priceFen: null, saleStartAt: null, royaltyPermille: null });
    expect(percentToPermille('10.55')).toBeNull();
  });

  it('round-trips a saved draft, and the shared rules judge it', () => {
    const now = Date.UTC(2027, 0, 1);
    const d = {
      id: 1, state: 'draft' as const, title: '白泽', storyHtml: '<p>a &amp; b</p><p>c<br>d</p>', coverKey: 'k', cover: '/u/k', mediaKind: null, mediaKey: null,
      supply: 50, priceFen: 1990, saleStartAt: now + 2 * 3600_000, perIdentityLimit: 3, holdingDays: 0, royaltyPermille: 75,
      reviewReason: null, projectId: null, createdAt: now, updatedAt: now, submittedAt: null, reviewedAt: null,
    };
    const f = formOf(d);
    expect(f).toMatchObject({ price: '19.90', royalty: '7.5', start: '2027-01-01T10:00' });
    expect(bodyOf(f)).toMatchObject({ priceFen: 1990, royaltyPermille: 75, saleStartAt: d.saleStartAt });
    expect(htmlToPlain(d.storyHtml)).toBe('a & b\n\nc\nd');
    expect(textToHtml('a & b\n\nc\nd')).toBe('<p>a &amp; b</p><p>c<br>d</p>');
    expect(draftProblem(d, now)).toBeNull();
    expect(draftProblem({ ...d, saleStartAt: now + 30 * 60_000 }, now)).toBe('studioBadStart');
    expect(draftProblem({ ...d, supply: 100_001 }, now)).toBe('studioBadSupply');
    expect(draftProblem({ ...d, royaltyPermille: 101 }, now)).toBe('studioBadRoyalty');
  });
});
