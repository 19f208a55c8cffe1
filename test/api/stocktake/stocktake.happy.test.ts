// Stocktake (docs/stocktake.md, docs/product.md §14): a count of a location subtree, counted by two people at once,
// resumed, applied in one transaction as adjustments and moves with history and inventory-item.updated, reported as
// CSV and PDF. Runs on SQLite and (with DATABASE_URL) PostgreSQL.

import * as mupdf from 'mupdf';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventMark, eventsSince } from '../../helpers/events.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { apply, count, get, instanceNow, lineOf, makeShelf, moreContainers, start, started } from './_stocktake.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const history = async (itemId: string) =>
  (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${itemId}/history` })).json();

describe('stocktake (happy)', () => {
  it('a count lists every container stored in the subtree as missing until counted; starting it again resumes it', async () => {
    const s = await makeShelf(h);
    const view = await started(h, h.a.member.token, s.rootId);
    expect(view).toMatchObject({
      status: 'open',
      location_id: s.rootId,
      location: { pathNames: [expect.stringMatching(/^Freezer /)] },
      lab: { id: h.a.migratedLab.id },
      started_by: { id: h.a.member.id },
      summary: { expected: 2, counted: 0, missing: 2, unexpected: 0, different: 0, matching: 0 },
      app_url: `http://labstock.test/app/stocktakes/${view.id}`,
    });
    expect(view.lines.map((l: any) => l.instance_id).sort()).toEqual([s.instanceIds[0], s.instanceIds[1]].sort());
    expect(lineOf(view, s.instanceIds[1])).toMatchObject({
      state: 'missing',
      expected: true,
      counted: false,
      recorded_quantity: '2',
      lot_number: 'L-CHILD',
      recorded_location: { pathNames: [view.location.name, 'Rack 1'] },
    });
    const again = await start(h, h.a.admin.token, s.rootId);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().id).toBe(view.id);
    const open = await h.call(h.a.member.token, { method: 'GET', url: `/stocktakes?status=open&location_id=${s.rootId}` });
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json().map((x: any) => x.id)).toEqual([view.id]);
    expect(open.json()[0]).not.toHaveProperty('lines');
    expect(Number(open.headers['x-total-count'])).toBe(1);
  });

  it('two people count one session at once: every count of both is kept, each with who counted it', async () => {
    const s = await makeShelf(h);
    const view = await started(h, h.a.admin.token, s.rootId);
    // Both counters at once, each several containers, interleaved: one count per container, none lost.
    const [a, b] = await Promise.all([
      Promise.all([
        count(h, h.a.admin.token, view.id, s.instanceIds[0]!, { quantity: '4' }),
        count(h, h.a.admin.token, view.id, s.instanceIds[2]!),
      ]),
      Promise.all([
        count(h, h.a.member.token, view.id, s.instanceIds[1]!),
        count(h, h.a.member.token, view.id, s.instanceIds[1]!, { quantity: '2' }),
      ]),
    ]);
    for (const res of [...a, ...b]) expect(res.statusCode, res.body).toBe(200);
    const now = (await get(h, h.a.member.token, view.id)).json();
    expect(now.summary).toEqual({ expected: 2, counted: 3, missing: 0, unexpected: 1, different: 1, matching: 1 });
    expect(lineOf(now, s.instanceIds[0])).toMatchObject({ state: 'different', counted_quantity: '4', counted_by: { id: h.a.admin.id } });
    expect(lineOf(now, s.instanceIds[1])).toMatchObject({ state: 'matching', counted_by: { id: h.a.member.id } });
    // Recorded outside the subtree: unexpected, found at the counted location.
    expect(lineOf(now, s.instanceIds[2])).toMatchObject({
      state: 'unexpected',
      expected: false,
      found_location_id: s.rootId,
      recorded_location: { pathNames: [expect.stringMatching(/^Bench /)] },
    });
    const rows = await h.deps.db.selectFrom('stocktake_counts').selectAll().where('session_id', '=', view.id).execute();
    expect(rows).toHaveLength(3);
  });

  it('two clients counting twenty containers of one session at the same moment lose none of them', async () => {
    const s = await makeShelf(h);
    const box = await moreContainers(h, s.childId, 20);
    const view = await started(h, h.a.admin.token, s.rootId);
    const mine = box.instanceIds.filter((_, i) => i % 2 === 0);
    const theirs = box.instanceIds.filter((_, i) => i % 2 === 1);
    // Interleaved: each client sends its counts one after another while the other does the same.
    const run = async (token: string, ids: string[], quantity: string) => {
      for (const id of ids) {
        const res = await count(h, token, view.id, id, { quantity });
        expect(res.statusCode, res.body).toBe(200);
      }
    };
    await Promise.all([run(h.a.admin.token, mine, '1'), run(h.a.member.token, theirs, '0.5')]);
    const now = (await get(h, h.a.member.token, view.id)).json();
    expect(now.summary).toMatchObject({ expected: 22, counted: 20, missing: 2, different: 10, matching: 10 });
    for (const id of mine) expect(lineOf(now, id)).toMatchObject({ counted_quantity: '1', counted_by: { id: h.a.admin.id } });
    for (const id of theirs) expect(lineOf(now, id)).toMatchObject({ counted_quantity: '0.5', counted_by: { id: h.a.member.id } });
  });

  it('a count sent while the session is applied is either applied with it or refused: none is left behind', async () => {
    const s = await makeShelf(h);
    const view = await started(h, h.a.admin.token, s.rootId);
    await count(h, h.a.admin.token, view.id, s.instanceIds[0], { quantity: '4' });
    const [applied, late] = await Promise.all([
      apply(h, h.a.admin.token, view.id),
      count(h, h.a.member.token, view.id, s.instanceIds[1], { quantity: '1' }),
    ]);
    expect(applied.statusCode, applied.body).toBe(200);
    const result = (await get(h, h.a.member.token, view.id)).json();
    if (late.statusCode === 200) {
      expect(lineOf(result, s.instanceIds[1])).toMatchObject({ counted: true, counted_quantity: '1' });
      expect(await instanceNow(h, s.itemId, s.instanceIds[1])).toMatchObject({ quantity: '1' });
    } else {
      expect(late.statusCode, late.body).toBe(409);
      expect(lineOf(result, s.instanceIds[1])).toMatchObject({ counted: false, state: 'missing' });
      expect(await instanceNow(h, s.itemId, s.instanceIds[1])).toMatchObject({ quantity: '2' });
    }
  });

  it('an item deleted while its container is counted leaves the count, which still applies', async () => {
    const s = await makeShelf(h);
    const box = await moreContainers(h, s.rootId, 1);
    const view = await started(h, h.a.admin.token, s.rootId);
    await count(h, h.a.admin.token, view.id, box.instanceIds[0]!, { quantity: '3' });
    await count(h, h.a.admin.token, view.id, s.instanceIds[0], { quantity: '2' });
    const del = await h.call(h.a.admin.token, { method: 'DELETE', url: `/inventory-items/${box.itemId}` });
    expect(del.statusCode, del.body).toBe(204);
    const now = (await get(h, h.a.admin.token, view.id)).json();
    expect(lineOf(now, box.instanceIds[0]!)).toBeUndefined();
    expect((await apply(h, h.a.admin.token, view.id)).statusCode).toBe(200);
    expect(await instanceNow(h, s.itemId, s.instanceIds[0])).toMatchObject({ quantity: '2' });
  });

  it('applying makes the adjustments and moves in one go: history names the count, one inventory-item.updated per item', async () => {
    const s = await makeShelf(h);
    const view = await started(h, h.a.member.token, s.rootId);
    expect((await count(h, h.a.member.token, view.id, s.instanceIds[0]!, { quantity: '4.5' })).statusCode).toBe(200);
    // Found in the subtree, at another place than recorded: unexpected, moved by the apply.
    const moved = await count(h, h.a.admin.token, view.id, s.instanceIds[1]!, { location_id: s.rootId });
    expect(moved.json()).toMatchObject({ state: 'unexpected', found_location: { pathNames: [view.location.name] } });
    expect((await count(h, h.a.admin.token, view.id, s.instanceIds[2]!, { quantity: '1', location_id: s.childId })).statusCode).toBe(200);
    const mark = await eventMark(h);
    const res = await apply(h, h.a.member.token, view.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'applied', finished_by: { id: h.a.member.id }, missing_set_to_zero: false });
    // The lines as they stood when applied (not recomputed from the changed inventory).
    expect(res.json().summary).toMatchObject({ counted: 3, unexpected: 2, different: 1 });
    expect(await instanceNow(h, s.itemId, s.instanceIds[0]!)).toMatchObject({ quantity: '4.5' });
    expect((await instanceNow(h, s.itemId, s.instanceIds[1]!))?.location?.pathNames).toEqual([view.location.name]);
    expect((await instanceNow(h, s.itemId, s.instanceIds[2]!))?.location?.pathNames).toEqual([view.location.name, 'Rack 1']);
    const events = await eventsSince(h, mark);
    const updated = events.filter((e) => e.row.type.endsWith('inventory-item.updated'));
    expect(updated).toHaveLength(1);
    expect((updated[0]!.event.data as any).inventory_item.id).toBe(s.itemId);
    const lines = (await history(s.itemId)).filter((c: any) => c.stocktake_id === view.id);
    expect(lines.map((c: any) => `${c.field} ${c.instance_id}`).sort()).toEqual(
      [
        `instance.quantity ${s.instanceIds[0]}`,
        `instance.location_id ${s.instanceIds[1]}`,
        `instance.location_id ${s.instanceIds[2]}`,
      ].sort(),
    );
    expect(lines[0].note).toBe(`Stocktake of ${view.location.name}`);
    expect(lines.find((c: any) => c.field === 'instance.quantity')).toMatchObject({ old_value: '5', new_value: '4.5' });
    const after = (await get(h, h.a.admin.token, view.id)).json();
    expect(after.status).toBe('applied');
    expect(lineOf(after, s.instanceIds[0])).toMatchObject({ state: 'different', recorded_quantity: '5', counted_quantity: '4.5' });
  });

  it('a use recorded between the count and the apply is kept: the difference counted is what the apply adds', async () => {
    const s = await makeShelf(h);
    const view = await started(h, h.a.member.token, s.rootId);
    await count(h, h.a.member.token, view.id, s.instanceIds[0]!, { quantity: '4' }); // recorded 5: one short
    const used = await h.call(h.a.member.token, {
      method: 'POST',
      url: `/inventory-items/${s.itemId}/adjustments`,
      payload: { delta: '-2', instance_id: s.instanceIds[0], note: 'used' },
    });
    expect(used.statusCode, used.body).toBe(200);
    expect((await apply(h, h.a.member.token, view.id)).statusCode).toBe(200);
    expect(await instanceNow(h, s.itemId, s.instanceIds[0]!)).toMatchObject({ quantity: '2' });
  });

  it('missing containers are left as recorded by default, or set to zero when the person chooses', async () => {
    const s = await makeShelf(h);
    const left = await started(h, h.a.member.token, s.rootId);
    await count(h, h.a.member.token, left.id, s.instanceIds[0]!);
    const res = await apply(h, h.a.member.token, left.id, { missing: 'leave' });
    expect(res.json().summary).toMatchObject({ missing: 1, matching: 1 });
    expect(await instanceNow(h, s.itemId, s.instanceIds[1]!)).toMatchObject({ quantity: '2' });
    const zero = await started(h, h.a.member.token, s.rootId);
    expect(zero.id).not.toBe(left.id);
    await count(h, h.a.member.token, zero.id, s.instanceIds[0]!);
    const res2 = await apply(h, h.a.member.token, zero.id, { missing: 'set_to_zero' });
    expect(res2.json()).toMatchObject({ missing_set_to_zero: true });
    expect(await instanceNow(h, s.itemId, s.instanceIds[1]!)).toMatchObject({ quantity: '0' });
    expect(await instanceNow(h, s.itemId, s.instanceIds[0]!)).toMatchObject({ quantity: '5' });
  });

  it('an apply retried with the same Idempotency-Key answers the first response and applies once', async () => {
    const s = await makeShelf(h);
    const view = await started(h, h.a.member.token, s.rootId);
    await count(h, h.a.member.token, view.id, s.instanceIds[0]!, { quantity: '3' });
    const key = { 'idempotency-key': `apply-${view.id}` };
    const [first, second] = await Promise.all([apply(h, h.a.member.token, view.id, {}, key), apply(h, h.a.member.token, view.id, {}, key)]);
    const codes = [first.statusCode, second.statusCode].sort();
    // Both at once: one does the work, the other waits for or replays it (409 idempotency_key_in_progress while pending).
    expect(codes[0]).toBe(200);
    const replay = await apply(h, h.a.member.token, view.id, {}, key);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json().id).toBe(view.id);
    const changes = (await history(s.itemId)).filter((c: any) => c.stocktake_id === view.id);
    expect(changes).toHaveLength(1);
    expect(await instanceNow(h, s.itemId, s.instanceIds[0]!)).toMatchObject({ quantity: '3' });
  });

  it('the report comes as CSV (a row per line with its state) and as a PDF', async () => {
    const s = await makeShelf(h);
    const view = await started(h, h.a.member.token, s.rootId);
    await count(h, h.a.member.token, view.id, s.instanceIds[0]!, { quantity: '3' });
    const csv = await get(h, h.a.member.token, view.id, '/report.csv');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="stocktake-${view.id}.csv"`);
    const rows = csv.body.trim().split('\r\n');
    expect(rows[0]).toMatch(/^state,item,vendor,catalog_number,lot_number/);
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.includes('L-ROOT'))).toMatch(/^different,Buffer .*,5,3,/);
    expect(rows.find((r) => r.includes('L-CHILD'))).toMatch(/^missing,/);
    const pdf = await get(h, h.a.member.token, view.id, '/report.pdf');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const doc = await PDFDocument.load(pdf.rawPayload);
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getTitle()).toBe(`Stocktake of ${view.location.name}`);
    // Its text, read back by MuPDF: the summary, then each state with its containers.
    const read = mupdf.Document.openDocument(pdf.rawPayload, 'application/pdf');
    const text = read.loadPage(0).toStructuredText('preserve-whitespace').asText();
    read.destroy();
    expect(text).toContain(`Stocktake of ${view.location.name}`);
    expect(text).toContain('2 expected, 1 counted: 1 missing, 0 unexpected, 1 different, 0 as recorded');
    expect(text).toMatch(/Missing \(1\)\s+Buffer .* · lot L-CHILD\s+Recorded 2 at .* \/ Rack 1; not counted/);
    expect(text).toMatch(/Different \(1\)\s+Buffer .* · lot L-ROOT\s+Recorded 5 at .*; counted 3 by Max Member/);
  });

  it("the report's PDF prints names in Greek, Cyrillic and with µ as written (DejaVu Sans, not Latin-1 Helvetica)", async () => {
    const s = await makeShelf(h, h.a, 'α-tubulin 100 µL Жёлтый');
    const view = await started(h, h.a.member.token, s.rootId);
    const pdf = await get(h, h.a.member.token, view.id, '/report.pdf');
    expect(pdf.statusCode).toBe(200);
    const read = mupdf.Document.openDocument(pdf.rawPayload, 'application/pdf');
    const text = read.loadPage(0).toStructuredText('preserve-whitespace').asText();
    read.destroy();
    expect(text).toMatch(/α-tubulin 100 µL Жёлтый \S+ · lot L-ROOT/);
    expect(text).not.toContain('?');
  });
});
