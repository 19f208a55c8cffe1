// The shapes of the API's resources as the contract writes them, the seeded fixtures as the API must show them, ids
// and Link headers: shared by the test folders (no tests here).
import { expect } from 'vitest';
import type { OrgFixture } from './fixtures.js';

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A well-formed UUID that names nothing. */
export const UNKNOWN_ID = '5b0c1e0a-8f57-4c43-9a0e-2a5d6b1c9e7f';

/** Contract fields of an inventory item, plus app_url (docs/product.md §1). */
export const ITEM_KEYS = [
  'id',
  'name',
  'vendor',
  'catalog_number',
  'price',
  'unit_size',
  'quantity',
  'url',
  'technical_details',
  'expiration_date',
  'auto_reminder',
  'lot_number',
  'cas_number',
  'vendor_product_id',
  'lab',
  'type',
  'location',
  'sublocation',
  'added_by',
  'updated_by',
  'serial_number',
  'instances',
  'app_url',
].sort();

export const LAB_KEYS = ['id', 'name', 'organization', 'uses_instances'].sort();

export const USER_KEYS = ['id', 'first_name', 'last_name', 'email'].sort();

export const INSTANCE_KEYS = ['id', 'quantity', 'lot_number', 'expiration_date', 'location'].sort();

export const keysOf = (o: object): string[] => Object.keys(o).sort();

export function expectLabShape(lab: any): void {
  expect(keysOf(lab)).toEqual(LAB_KEYS);
  expect(lab.id).toMatch(UUID_RE);
  expect(typeof lab.name).toBe('string');
  expect(keysOf(lab.organization)).toEqual(['id', 'name']);
  expect(lab.organization.id).toMatch(UUID_RE);
  expect(typeof lab.organization.name).toBe('string');
  expect(typeof lab.uses_instances).toBe('boolean');
}

export function expectUserShape(user: any): void {
  expect(keysOf(user)).toEqual(USER_KEYS);
  expect(user.id).toMatch(UUID_RE);
  expect(typeof user.first_name).toBe('string');
  expect(typeof user.last_name).toBe('string');
  expect(user.email).toMatch(/^[^\s@]+@[^\s@]+\.[^\s@]+$/);
}

/** Every contract field present, no others but app_url; strings where the contract says strings. */
export function expectItemShape(item: any): void {
  expect(keysOf(item)).toEqual(ITEM_KEYS);
  expect(item.id).toMatch(UUID_RE);
  expect(typeof item.name).toBe('string');
  expect(typeof item.quantity).toBe('string');
  expect(item.quantity).toMatch(/^\d+(\.\d+)?$/);
  for (const k of [
    'vendor',
    'catalog_number',
    'price',
    'unit_size',
    'url',
    'technical_details',
    'auto_reminder',
    'lot_number',
    'cas_number',
    'serial_number',
  ]) {
    expect(item[k] === null || typeof item[k] === 'string', `${k} is a string or null`).toBe(true);
  }
  expectLabShape(item.lab);
  expectUserShape(item.added_by);
  expectUserShape(item.updated_by);
  if (item.type !== null) expect(keysOf(item.type)).toEqual(['id', 'name']);
  expect(Array.isArray(item.instances)).toBe(true);
  for (const inst of item.instances) {
    expect(keysOf(inst)).toEqual(INSTANCE_KEYS);
    expect(inst.id).toMatch(UUID_RE);
    expect(typeof inst.quantity).toBe('string');
    if (inst.location !== null) {
      expect(keysOf(inst.location)).toEqual(['name', 'pathNames']);
      expect(inst.location.name).toBe(inst.location.pathNames[inst.location.pathNames.length - 1]);
    }
  }
  if (!item.lab.uses_instances) expect(item.instances).toEqual([]);
  if (item.lab.uses_instances) {
    expect(item.lot_number).toBeNull();
    expect(item.expiration_date).toBeNull();
    expect(item.location).toBeNull();
    expect(item.sublocation).toBeNull();
  }
  expect(typeof item.app_url).toBe('string');
  expect(item.app_url).toContain(item.id);
}

export const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** Another well-formed id that names nothing. */
export const MISSING_ID = '0190a6f2-1111-7222-8333-444455556666';

/** Parses an RFC 8288 Link header into rel -> page number. */
export function linkPages(header: string | string[] | number | undefined): Record<string, { url: URL; page: number }> {
  const out: Record<string, { url: URL; page: number }> = {};
  if (typeof header !== 'string') return out;
  for (const part of header.split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="([^"]+)"/.exec(part.trim());
    if (!m) continue;
    const url = new URL(m[1]!);
    out[m[2]!] = { url, page: Number(url.searchParams.get('page')) };
  }
  return out;
}

/** Expected JSON of the lab as nested in items and returned by /labs. */
export const labJson = (id: string, name: string, org: OrgFixture, tag: string, usesInstances: boolean) => ({
  id,
  name,
  organization: { id: org.orgId, name: `Org ${tag}` },
  uses_instances: usesInstances,
});

export const adminSummary = (org: OrgFixture, tag: string) => ({
  id: org.admin.id,
  first_name: 'Ada',
  last_name: `Admin${tag}`,
  email: `admin-${tag.toLowerCase()}@example.org`,
});

export const memberSummary = (org: OrgFixture, tag: string) => ({
  id: org.member.id,
  first_name: 'Max',
  last_name: `Member${tag}`,
  email: `member-${tag.toLowerCase()}@example.org`,
});

/** app_url: a link into the application (APP_URL) naming the item; its exact path is the application's choice. */
export const appUrlOf = (appUrl: string, id: string) =>
  expect.stringMatching(new RegExp(`^${appUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\S*${id}$`));

/** The seeded legacy item exactly as the API must show it (before any update). */
export function expectedLegacyItem(org: OrgFixture, tag: string, appUrl: string) {
  return {
    id: org.legacyLab.itemId,
    name: `Ethanol ${tag}`,
    vendor: 'Sigma',
    catalog_number: 'E7023',
    price: '42.50',
    unit_size: '1 L',
    quantity: '3',
    url: null,
    technical_details: null,
    expiration_date: '2027-01-31',
    auto_reminder: null,
    lot_number: 'LOT-1',
    cas_number: null,
    vendor_product_id: null,
    lab: labJson(org.legacyLab.id, `Legacy lab ${tag}`, org, tag, false),
    type: { id: org.legacyLab.typeId, name: 'Reagent' },
    location: { name: 'Cabinet 1' },
    sublocation: { name: 'Shelf A' },
    added_by: adminSummary(org, tag),
    updated_by: adminSummary(org, tag),
    serial_number: null,
    instances: [],
    app_url: appUrlOf(appUrl, org.legacyLab.itemId),
  };
}

/** The seeded migrated item exactly as the API must show it (before any update). */
export function expectedMigratedItem(org: OrgFixture, tag: string, appUrl: string) {
  const [first, second] = org.migratedLab.instanceIds;
  return {
    id: org.migratedLab.itemId,
    name: `Anti-GFP ${tag}`,
    vendor: 'Abcam',
    catalog_number: 'ab290',
    price: null,
    unit_size: null,
    quantity: '0.3',
    url: null,
    technical_details: null,
    expiration_date: null,
    auto_reminder: null,
    lot_number: null,
    cas_number: null,
    vendor_product_id: null,
    lab: labJson(org.migratedLab.id, `Migrated lab ${tag}`, org, tag, true),
    type: { id: org.migratedLab.typeId, name: 'Antibody' },
    location: null,
    sublocation: null,
    added_by: adminSummary(org, tag),
    updated_by: adminSummary(org, tag),
    serial_number: null,
    instances: [
      {
        id: first,
        quantity: '0.1',
        lot_number: 'A1',
        expiration_date: '2027-06-30',
        location: { name: 'Shelf 2', pathNames: ['Room 101', 'Freezer A', 'Shelf 2'] },
      },
      { id: second, quantity: '0.2', lot_number: null, expiration_date: null, location: null },
    ],
    app_url: appUrlOf(appUrl, org.migratedLab.itemId),
  };
}

/** Parses an RFC 8288 Link header into rel -> URL. */
export function parseLink(header: string | string[] | number | undefined): Record<string, URL> {
  const out: Record<string, URL> = {};
  for (const part of String(header ?? '').split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="([^"]+)"/.exec(part.trim());
    if (m) out[m[2]!] = new URL(m[1]!);
  }
  return out;
}
