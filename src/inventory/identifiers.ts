import { appPathOf } from '../labels/rules.js';
import { findLabRow } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { notFound, validation } from '../shared/errors.js';
import { nowIso } from '../shared/time.js';
import { lockVisibleItem } from './changes.js';
import { CSET_82, gtinCheckDigitOk, readGs1 } from './gs1.js';
import { type HistoryEntry, recordHistory } from './history-rows.js';
import * as ids from './identifiers-repository.js';
import type { BarcodeMatches, IdentifiersBody, InstanceIdentifiers, ReceivedIdentifiers } from './identifiers-schemas.js';
import * as repo from './repository.js';

// A container's GTIN (GS1 AI 01) and serial number (AI 21), kept per instance (docs/scanning.md "Identifiers"): set
// at receiving from the manufacturer's barcode in the same submission, read and corrected on their own endpoint,
// and found again by a later scan of the same barcode. Not part of the contract's instance or item, so setting them
// gives the item no new version and no event; a correction is a line of the item's history (who, when, from what).

export interface Identifiers {
  gtin: string | null;
  serialNumber: string | null;
}

/** Checked and normalized (a GTIN-8, -12 or -13 padded to 14 digits); 422 naming `field`.gtin / .serial_number. */
export function checkIdentifiers(input: { gtin?: string | null; serial_number?: string | null }, prefix = ''): Identifiers {
  const errors: { field: string; message: string }[] = [];
  let gtin = input.gtin?.trim() || null;
  if (gtin !== null) {
    if (!/^(\d{8}|\d{12,14})$/.test(gtin)) errors.push({ field: `${prefix}gtin`, message: 'must be 8, 12, 13 or 14 digits' });
    else {
      gtin = gtin.padStart(14, '0');
      if (!gtinCheckDigitOk(gtin)) errors.push({ field: `${prefix}gtin`, message: 'has a wrong check digit' });
    }
  }
  const serialNumber = input.serial_number?.trim() || null;
  if (serialNumber !== null && (serialNumber.length > 20 || !CSET_82.test(serialNumber))) {
    errors.push({ field: `${prefix}serial_number`, message: 'must be 1 to 20 letters, digits or the punctuation GS1 allows' });
  }
  if (errors.length) throw validation(errors);
  return { gtin, serialNumber };
}

/** Receiving's identifiers, or undefined when the body gives none (422 on a malformed one, before anything is written). */
export function receivedIdentifiers(input: ReceivedIdentifiers | undefined): Identifiers | undefined {
  if (!input) return undefined;
  const checked = checkIdentifiers(input, 'identifiers.');
  return checked.gtin === null && checked.serialNumber === null ? undefined : checked;
}

/** Stores a new instance's identifiers inside the transaction that creates it (src/inventory/instances.ts). */
export async function setIdentifiersIn(
  trx: Executor,
  at: { instanceId: string; labId: string; userId: string | null; now: string },
  identifiers: Identifiers,
): Promise<void> {
  const lab = (await findLabRow(trx, at.labId))!;
  await ids.putIdentifiers(trx, { ...at, organizationId: lab.organization_id, ...identifiers });
}

const view = (itemId: string, instanceId: string, row: ids.IdentifierRow | undefined): InstanceIdentifiers => ({
  instance_id: instanceId,
  item_id: itemId,
  gtin: row?.gtin ?? null,
  serial_number: row?.serial_number ?? null,
  updated_at: row?.updated_at ?? null,
});

/** GET /inventory-items/{itemId}/instances/{itemInstanceId}/identifiers (archived instances too). */
export async function getIdentifiers(deps: ServiceDeps, actor: Actor, itemId: string, instanceId: string): Promise<InstanceIdentifiers> {
  const item = await repo.findVisibleItem(deps.db, actor, itemId);
  if (!item || !(await ids.instanceOfItem(deps.db, itemId, instanceId))) throw notFound('instance');
  return view(itemId, instanceId, await ids.identifiersOf(deps.db, instanceId));
}

/** GET /inventory-items/{id}/identifiers: those of every instance of the item that has any. */
export async function listItemIdentifiers(deps: ServiceDeps, actor: Actor, itemId: string): Promise<InstanceIdentifiers[]> {
  const item = await repo.findVisibleItem(deps.db, actor, itemId);
  if (!item) throw notFound('inventory item');
  return (await ids.identifiersOfItem(deps.db, itemId)).map((r) => view(itemId, r.instance_id, r));
}

/** PUT …/identifiers: both given (null: none); an active instance of a visible item, not while its lab migrates. */
export async function putInstanceIdentifiers(
  deps: ServiceDeps,
  actor: Actor,
  itemId: string,
  instanceId: string,
  body: IdentifiersBody,
): Promise<InstanceIdentifiers> {
  const checked = checkIdentifiers(body);
  return deps.db.transaction().execute(async (trx) => {
    const item = await lockVisibleItem(trx, actor, itemId);
    const instance = await ids.instanceOfItem(trx, itemId, instanceId);
    if (!instance || instance.archived_at !== null) throw notFound('instance');
    const before = await ids.identifiersOf(trx, instanceId);
    const now = nowIso();
    await setIdentifiersIn(trx, { instanceId, labId: item.lab_id, userId: actor.userId, now }, checked);
    const changes: HistoryEntry[] = [];
    const was = { gtin: before?.gtin ?? null, serialNumber: before?.serial_number ?? null };
    if (was.gtin !== checked.gtin) changes.push({ field: 'instance.gtin', instanceId, old: was.gtin, new: checked.gtin });
    if (was.serialNumber !== checked.serialNumber)
      changes.push({ field: 'instance.serial_number', instanceId, old: was.serialNumber, new: checked.serialNumber });
    if (changes.length > 0) await recordHistory(trx, { itemId, userId: actor.userId, now }, changes);
    return view(itemId, instanceId, await ids.identifiersOf(trx, instanceId));
  });
}

const FIND_LIMIT = 20;

/**
 * POST /barcodes/gs1/containers: the containers a vendor barcode names, in the labs the caller sees. With a serial
 * (AI 21): GTIN and serial, or the serial alone when the barcode has no GTIN; without one: GTIN and lot (AI 10). A
 * barcode with neither rule's elements is 422 (it names no container).
 */
export async function findByBarcode(deps: ServiceDeps, actor: Actor, barcode: string): Promise<BarcodeMatches> {
  const reading = readGs1(barcode);
  let matchedBy: BarcodeMatches['matched_by'];
  if (reading.serial_number !== null) matchedBy = reading.gtin !== null ? 'gtin_and_serial' : 'serial';
  else if (reading.gtin !== null && reading.lot_number !== null) matchedBy = 'gtin_and_lot';
  else {
    throw validation([
      { field: 'barcode', message: 'names no container: it needs a serial (AI 21), or a product number (AI 01) with a lot (AI 10)' },
    ]);
  }
  const rows = await ids.findContainers(
    deps.db,
    actor,
    { gtin: reading.gtin, serialNumber: reading.serial_number, lotNumber: reading.lot_number },
    FIND_LIMIT,
  );
  return {
    reading,
    matched_by: matchedBy,
    containers: rows.map((r) => ({
      instance_id: r.instance_id,
      item_id: r.item_id,
      item_name: r.item_name,
      lab: { id: r.lab_id, name: r.lab_name },
      lot_number: r.lot_number,
      expiration_date: r.expiration_date,
      quantity: r.quantity,
      archived: r.archived_at !== null,
      gtin: r.gtin,
      serial_number: r.serial_number,
      app_path: appPathOf('instance', { labId: r.lab_id, itemId: r.item_id, targetId: r.instance_id }),
    })),
  };
}
