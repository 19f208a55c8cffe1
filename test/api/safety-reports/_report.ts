// The hazard report's world (docs/hazard-reports.md), shared by its happy, errors and security files: in org A's
// migrated lab, reagents with hazard statements stored in two buildings, one room a control area.
import * as mupdf from 'mupdf';
import { setControlArea } from '../../../src/hazards/control-area.js';
import { setHazardsIn } from '../../../src/hazards/repository.js';
import { createLocation } from '../../../src/locations/service.js';
import { nowIso } from '../../../src/shared/time.js';
import { addItem } from '../../helpers/data.js';
import type { Harness } from '../../helpers/harness.js';

export const reportUrl = (labId: string, query = '') => `/labs/${labId}/hazard-report${query ? `?${query}` : ''}`;

export interface ReportWorld {
  room: string;
  shelf: string;
  buildingB: string;
  store: string;
  ethanol: string;
  acetone: string;
  mystery: string;
  acid: string;
}

/** Gives an item hazard statements, as the hazards page would. */
export async function setHazards(h: Harness, labId: string, itemId: string, codes: string[]): Promise<void> {
  await h.deps.db
    .transaction()
    .execute((trx) => setHazardsIn(trx, { kind: 'item', id: itemId }, { labId, codes, userId: h.a.admin.id, now: nowIso() }));
}

export async function reportWorld(h: Harness): Promise<ReportWorld> {
  const lab = h.a.migratedLab;
  const actor = h.a.admin.actor;
  const [room, , shelf] = lab.locationIds as [string, string, string];
  const buildingB = (await createLocation(h.deps.db, actor, { labId: lab.id, parentId: null, name: 'Building B' })).id;
  const store = (await createLocation(h.deps.db, actor, { labId: lab.id, parentId: buildingB, name: 'Acid store' })).id;
  const item = async (name: string, unitSize: string, codes: string[], instances: { quantity: string; locationId: string }[]) => {
    const it = await addItem(h, actor, { labId: lab.id, name, unitSize }, instances);
    await setHazards(h, lab.id, it.id, codes);
    return it.id;
  };
  const ethanol = await item(
    'Ethanol absolute',
    '2.5 L',
    ['H225', 'H319'],
    [
      { quantity: '1', locationId: shelf },
      { quantity: '1', locationId: shelf },
    ],
  );
  const acetone = await item('Acetone', '1 L', ['H225', 'H319', 'H336'], [{ quantity: '1', locationId: room }]);
  const mystery = await item('Solvent blend', '5 mg/mL', ['H225'], [{ quantity: '3', locationId: room }]);
  const acid = await item('Sulfuric acid 95 %', '2.5 L', ['H290', 'H314'], [{ quantity: '2', locationId: store }]);
  // Not hazardous: not in the report.
  await addItem(h, actor, { labId: lab.id, name: 'Tris base', unitSize: '1 kg' }, [{ quantity: '4', locationId: room }]);
  await h.deps.db.transaction().execute((trx) =>
    setControlArea(
      trx,
      actor,
      { id: room, lab_id: lab.id },
      {
        sprinklered: false,
        cabinets: false,
        limits: [{ category: 'flammable-liquid-ib-ic', state: 'liquid', limit: '10' }],
      },
    ),
  );
  return { room, shelf, buildingB, store, ethanol, acetone, mystery, acid };
}

/** The text of every page of a PDF, read back with MuPDF. */
export function pdfText(pdf: Uint8Array): string {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    let text = '';
    for (let i = 0; i < doc.countPages(); i++) {
      const page = doc.loadPage(i);
      text += page.toStructuredText('preserve-whitespace').asText();
      page.destroy();
    }
    return text;
  } finally {
    doc.destroy();
  }
}
