// PUT /attachments/{id}/safety-data-sheet and GET /inventory-items/{id}/safety-data-sheets (docs/hazards.md,
// "Safety data sheets"): a document of an item or its type marked with its revision date, due for review after
// SDS_REVIEW_YEARS (5 by default).
import { describe, expect, it } from 'vitest';
import { reviewDueOn } from '../../../src/attachments/sds.js';
import { addItem } from '../../helpers/data.js';
import { useHarness } from '../../helpers/use-harness.js';
import { pdf, upload } from '../attachments/_attachments.js';

const h = useHarness();
const mark = (token: string, id: string, revised: string | null) =>
  h.call(token, { method: 'PUT', url: `/attachments/${id}/safety-data-sheet`, payload: { revised_on: revised } });
const sheets = (token: string, itemId: string) => h.call(token, { method: 'GET', url: `/inventory-items/${itemId}/safety-data-sheets` });

describe('safety data sheets (happy)', () => {
  it("the type's and the item's own, newest first, each with its review date and whether it is overdue", async () => {
    const lab = h.a.legacyLab;
    const item = await addItem(h, h.a.admin.actor, { labId: lab.id, name: 'Acetone', typeId: lab.typeId, quantity: '1' });
    const typeDoc = (
      await upload(h, h.a.admin.token, { kind: 'type', typeId: lab.typeId }, pdf('SDS 2019'), 'acetone-sds-2019.pdf')
    ).json();
    const own = (await upload(h, h.a.member.token, { kind: 'item', itemId: item.id }, pdf('SDS 2024'), 'acetone-sds-2024.pdf')).json();
    await upload(h, h.a.member.token, { kind: 'item', itemId: item.id }, pdf('A quote'), 'quote.pdf');
    expect((await sheets(h.a.member.token, item.id)).json()).toEqual([]);

    const marked = await mark(h.a.admin.token, typeDoc.id, '2019-03-12');
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toEqual({
      attachment_id: typeDoc.id,
      owner_kind: 'type',
      owner_id: lab.typeId,
      file_name: 'acetone-sds-2019.pdf',
      revised_on: '2019-03-12',
      review_due_on: '2024-03-12',
      review_years: 5,
      overdue: true,
      download_url: `/attachments/${typeDoc.id}/content`,
    });
    const today = new Date().toISOString().slice(0, 10);
    expect((await mark(h.a.member.token, own.id, today)).json()).toMatchObject({ owner_kind: 'item', overdue: false });

    const list = (await sheets(h.a.member.token, item.id)).json();
    expect(list.map((s: any) => [s.file_name, s.overdue])).toEqual([
      ['acetone-sds-2024.pdf', false],
      ['acetone-sds-2019.pdf', true],
    ]);

    // Unmarked: 204, and it is an ordinary document again.
    const unmarked = await mark(h.a.member.token, own.id, null);
    expect(unmarked.statusCode).toBe(204);
    expect((await sheets(h.a.member.token, item.id)).json().map((s: any) => s.attachment_id)).toEqual([typeDoc.id]);
  });

  it('the review date is the same day, that many years on', () => {
    expect(reviewDueOn('2021-03-12', 5)).toBe('2026-03-12');
    expect(reviewDueOn('2020-02-29', 5)).toBe('2025-03-01');
  });
});
