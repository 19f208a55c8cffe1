// Upgrades never serve stale documents (issue 24; docs/decisions/0015-stored-item-documents.md, src/inventory/stored/
// shape.ts). The documents a release with another rendering stored are put in the rows as that release left them
// (their text with a key it did not have, one it had and ours lacks, a stale name; their shape tag). This version
// then serves fresh documents at once, by GET, in lists and in the events of a change (the PUT of an instance's
// quantity builds its document from the stored one), without `labstock admin rebuild`; the background rebuild writes
// them all, in batches, reports its progress, and a pass stopped midway leaves only the rest to do.

import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { UserSummary } from '../../../src/accounts/schemas.js';
import { startDocumentRebuild, writeMissingDocuments } from '../../../src/inventory/stored/rebuild.js';
import { countMissingDocuments } from '../../../src/inventory/stored/repository.js';
import { DOCUMENT_SHAPE, documentShape, RENDERER_VERSION } from '../../../src/inventory/stored/shape.js';
import { systemActor } from '../../../src/shared/actor.js';
import { ref } from '../../../src/shared/schemas.js';
import { eventMark, eventsSince } from '../../helpers/events.js';
import { expectDocumentsFresh, freshDocument } from '../../helpers/stored-documents.js';
import { useHarness } from '../../helpers/use-harness.js';

const PREVIOUS_SHAPE = 'previous-release';

let token: string;
let itemIds: string[];
const h = useHarness({}, async (h) => {
  token = h.a.admin.token;
  for (const name of ['Shape acetone', 'Shape ethanol', 'Shape tris'])
    expect((await h.call(token, { method: 'POST', url: '/inventory-items', payload: { lab_id: h.a.legacyLab.id, name } })).statusCode).toBe(
      201,
    );
  const labsOfA = [h.a.legacyLab.id, h.a.migratedLab.id, h.a.otherLab.id];
  itemIds = (await h.deps.db.selectFrom('inventory_items').select('id').where('lab_id', 'in', labsOfA).execute()).map((r) => r.id);
  // What `labstock serve` did when it last started: the APP_URL and the shape recorded, every document written.
  await startDocumentRebuild(h.deps.db, systemActor('server'), h.config.appUrl, collectingLog()).finished;
});

/** Every stored document becomes what a release rendering another shape stored: another key set, a stale name. */
async function storeDocumentsOfPreviousRelease() {
  const rows = await h.deps.db.selectFrom('inventory_items').select(['id', 'rendered']).execute();
  for (const row of rows) {
    const { serial_number: _gone, ...doc } = JSON.parse(row.rendered!) as Record<string, unknown>;
    const old = JSON.stringify({ ...doc, name: `stale ${doc.name}`, legacy_only: true });
    await h.deps.db
      .updateTable('inventory_items')
      .set({ rendered: old, rendered_shape: PREVIOUS_SHAPE })
      .where('id', '=', row.id)
      .execute();
  }
  return rows.length;
}

function collectingLog() {
  const lines: { level: string; o: Record<string, unknown>; m: string }[] = [];
  return {
    lines,
    info: (o: object, m: string) => lines.push({ level: 'info', o: o as Record<string, unknown>, m }),
    error: (o: object, m: string) => lines.push({ level: 'error', o: o as Record<string, unknown>, m }),
  };
}

async function metricValues() {
  const metric = await h.app.deps.metrics.documents.get();
  return Object.fromEntries(metric.values.map((v) => [v.labels.progress, v.value]));
}

describe('documents of another shape are never served', () => {
  it('GET, the list, a search and the answer and event of a change serve the new shape, before any rebuild', async () => {
    await storeDocumentsOfPreviousRelease();
    for (const id of itemIds) {
      const got = await h.call(token, { method: 'GET', url: `/inventory-items/${id}` });
      expect(got.statusCode).toBe(200);
      expect(got.body).toBe(await freshDocument(h, id));
      expect(got.body).not.toContain('stale');
    }
    for (const url of ['/inventory-items?per_page=100', `/inventory-items?lab_id=${h.a.legacyLab.id}`, '/inventory-items?q=Shape']) {
      const list = await h.call(token, { method: 'GET', url });
      expect(list.statusCode, url).toBe(200);
      const docs = list.json() as { id: string }[];
      expect(docs.length, url).toBeGreaterThan(0);
      for (const doc of docs) expect(JSON.stringify(doc), url).toBe(await freshDocument(h, doc.id));
    }

    // The write whose new document is the stored one with three values changed (src/inventory/quantity-fast.ts).
    const itemId = h.a.migratedLab.itemId;
    const instanceId = h.a.migratedLab.instanceIds[0]!;
    const before = await eventMark(h);
    const put = await h.call(token, {
      method: 'PUT',
      url: `/inventory-items/${itemId}/instances/${instanceId}`,
      payload: { quantity: '41.5' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.body).toBe(await freshDocument(h, itemId));
    const updated = (await eventsSince(h, before)).find((e) => /inventory-item\.updated$/.test(e.event.type));
    expect(updated!.event.type).toMatch(/inventory-item\.updated$/);
    expect(JSON.stringify((updated!.event.data as { inventory_item: unknown }).inventory_item)).toBe(await freshDocument(h, itemId));
    // An edit that changes nothing answers with the item as it is, not with the stored text of another shape.
    const legacyId = h.a.legacyLab.itemId;
    const { quantity } = JSON.parse(await freshDocument(h, legacyId)) as { quantity: string };
    const same = await h.call(token, { method: 'PUT', url: `/inventory-items/${legacyId}`, payload: { quantity } });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.body).not.toContain('stale');
  });

  it('the background rebuild writes them all in batches, with progress in the log and the metric, and records the shape', async () => {
    const total = await storeDocumentsOfPreviousRelease();
    await h.deps.db.updateTable('inventory_document_settings').set({ shape: PREVIOUS_SHAPE }).execute();
    const log = collectingLog();
    const rebuild = startDocumentRebuild(h.deps.db, systemActor('server'), h.config.appUrl, log, h.app.deps.metrics.documents, {
      batch: 2,
      pauseMs: 0,
    });
    await rebuild.finished;
    expect(log.lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(log.lines[0]).toMatchObject({ level: 'info', o: { total, shape: DOCUMENT_SHAPE, previousShape: PREVIOUS_SHAPE } });
    expect(log.lines.some((l) => l.m === 'writing stored item documents' && typeof l.o.done === 'number')).toBe(true);
    expect(log.lines.at(-1)).toMatchObject({ o: { written: total, total, complete: true } });
    expect(await metricValues()).toEqual({ done: total, total });
    expect(await expectDocumentsFresh(h)).toBe(total);
    const settings = await h.deps.db.selectFrom('inventory_document_settings').select('shape').executeTakeFirstOrThrow();
    expect(settings.shape).toBe(DOCUMENT_SHAPE);
  });

  it('a pass stopped after a batch (a crash) leaves only the rest for the next start', async () => {
    const total = await storeDocumentsOfPreviousRelease();
    const first = await writeMissingDocuments(h.deps.db, systemActor('server'), h.config.appUrl, null, 2);
    expect(first.written).toBe(2);
    expect(await countMissingDocuments(h.deps.db)).toBe(total - 2);
    const log = collectingLog();
    const rebuild = startDocumentRebuild(h.deps.db, systemActor('server'), h.config.appUrl, log, h.app.deps.metrics.documents, {
      pauseMs: 0,
    });
    await rebuild.finished;
    expect(log.lines.at(-1)).toMatchObject({ o: { written: total - 2, total: total - 2, complete: true } });
    expect(await countMissingDocuments(h.deps.db)).toBe(0);
    expect(await expectDocumentsFresh(h)).toBe(total);
  });

  it('with every document of this shape the server starts without writing any', async () => {
    const log = collectingLog();
    await startDocumentRebuild(h.deps.db, systemActor('server'), h.config.appUrl, log, h.app.deps.metrics.documents).finished;
    expect(log.lines).toEqual([]);
    expect(await metricValues()).toEqual({ done: 0, total: 0 });
  });
});

describe('the shape follows the item schema and the renderer version', () => {
  const Item = (extra = {}) =>
    Type.Object(
      { id: Type.String({ description: 'the id' }), by: ref(UserSummary), ...extra },
      { $id: 'ShapeItem', additionalProperties: false },
    );
  const base = documentShape(Item(), [UserSummary], RENDERER_VERSION);

  it('a new field, a field of another type, a change in a referred schema or the renderer version is another shape', () => {
    expect(documentShape(Item({ hazard: Type.String() }), [UserSummary], RENDERER_VERSION)).not.toBe(base);
    expect(documentShape(Item({ id: Type.Number() }), [UserSummary], RENDERER_VERSION)).not.toBe(base);
    const OtherSummary = Type.Object({ id: Type.String(), name: Type.String() }, { $id: 'UserSummary' });
    expect(documentShape(Item(), [OtherSummary], RENDERER_VERSION)).not.toBe(base);
    expect(documentShape(Item(), [UserSummary], RENDERER_VERSION + 1)).not.toBe(base);
  });

  it('words for people (descriptions, examples) are the same shape; a schema it cannot resolve fails loudly', () => {
    const described = Type.Object(
      { id: Type.String({ description: 'another description', examples: ['x'] }), by: ref(UserSummary) },
      { $id: 'ShapeItem', additionalProperties: false, title: 'Shape item' },
    );
    expect(documentShape(described, [UserSummary], RENDERER_VERSION)).toBe(base);
    expect(() => documentShape(Item(), [], RENDERER_VERSION)).toThrow(/no schema named UserSummary/);
  });
});
