// GET /inventory-items search and filter input that could break a full-text query or a filter: never an error
// (nor query syntax reaching the index), only 422 for a parameter that is not of its type. docs/product.md §2 and §12.
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, dbState, expectError, expectValidation, revokedToken } from './_helpers.js';
import { listItems, namesFor } from './_search.js';

let token: string;
const h = useHarness({}, async (h) => {
  token = h.a.admin.token;
  await addItem(h, h.a.admin.actor, {
    labId: h.a.legacyLab.id,
    name: 'Sodium chloride',
    vendor: 'Roth',
    casNumber: '7647-14-5',
    quantity: '1',
  });
  await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Near-IR dye "Cy7"', vendor: "O'Neil & Sons", quantity: '1' });
});

// FTS5 and tsquery syntax, SQL, LIKE wildcards, control and odd Unicode characters.
const NASTY = [
  '"',
  '""',
  "'",
  "''",
  '\\',
  '*',
  '**',
  '-',
  '--',
  '-sodium',
  'sodium*',
  '*sodium',
  '"sodium',
  'sod"ium',
  '"sodium chloride"',
  'AND',
  'OR',
  'NOT',
  'NEAR',
  'sodium AND',
  'AND sodium',
  'sodium OR chloride',
  'sodium NOT chloride',
  'NEAR(sodium chloride)',
  'NEAR(sodium chloride, 2)',
  'sodium NEAR/2 chloride',
  '(',
  ')',
  '(sodium',
  'sodium)',
  '^sodium',
  'name:sodium',
  'document:sodium',
  '{name document}: sodium',
  '+',
  ':',
  ':*',
  'sodium:*',
  '!',
  '!sodium',
  '&',
  '|',
  '&|!',
  '<->',
  'sodium <-> chloride',
  'sodium <2> chloride',
  '%',
  '_',
  '%_%',
  "'; drop table inventory_items; --",
  "sodium' or '1'='1",
  '1 OR 1=1',
  '\t\n\r',
  '\u0001\u0002',
  '\u200b',
  '\u200d',
  '\ufeffsodium',
  'a\u0301',
  '🧪',
  '👩‍🔬 sodium',
  'ﬁ',
  'Ω',
  'ß',
  'İ',
  'x'.repeat(200),
  'a '.repeat(100).trim(),
  Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '),
];

describe('GET /inventory-items?q: odd input never errors and never becomes query syntax', () => {
  it.each(NASTY.map((q) => [JSON.stringify(q).slice(0, 40), q]))('q=%s answers 200 with a list', async (_label, q) => {
    const r = await listItems(h, token, { q });
    expect(r.status, r.body).toBe(200);
    expect(Array.isArray(r.items)).toBe(true);
    expect(r.total).toBe(r.items.length);
    for (const item of r.items) expect(item.lab.organization.id).toBe(h.a.orgId);
  });

  it('operators are words like any other: they match items that hold such words, nothing else', async () => {
    // "sodium AND chloride" needs a word starting with "and": none holds one.
    expect(await namesFor(h, token, { q: 'sodium AND chloride' })).toEqual([]);
    expect(await namesFor(h, token, { q: 'sodium OR nothing' })).toEqual([]);
    // "-sodium", "sodium*", '"sodium"', "(sodium)", "^sodium", "sodium:*" are the word sodium.
    for (const q of ['-sodium', 'sodium*', '"sodium"', '(sodium)', '^sodium', 'sodium:*', '!sodium', 'sodium\\'])
      expect(await namesFor(h, token, { q }), q).toEqual(['Sodium chloride']);
    // NEAR is a word of "Near-IR dye": found as such, not as an operator.
    expect(await namesFor(h, token, { q: 'NEAR' })).toEqual(['Near-IR dye "Cy7"']);
    expect(await namesFor(h, token, { q: 'near-ir' })).toEqual(['Near-IR dye "Cy7"']);
    expect(await namesFor(h, token, { q: '"cy7"' })).toEqual(['Near-IR dye "Cy7"']);
    expect(await namesFor(h, token, { q: "o'neil" })).toEqual(['Near-IR dye "Cy7"']);
    expect(await namesFor(h, token, { q: 'sons &' })).toEqual(['Near-IR dye "Cy7"']);
    // SQL in q is only words.
    expect(await namesFor(h, token, { q: "'; drop table inventory_items; --" })).toEqual([]);
    expect((await listItems(h, token, { per_page: '100' })).total).toBe(4);
  });

  it('a q of 200 characters is accepted; 201 is 422 naming q', async () => {
    expect((await listItems(h, token, { q: 's'.repeat(200) })).status).toBe(200);
    expectValidation(await h.call(token, { method: 'GET', url: `/inventory-items?q=${'s'.repeat(201)}` }), 'q');
  });
});

describe('GET /inventory-items filters: 422 for values not of their type', () => {
  it.each(['2027-13-01', '2027-02-30', 'tomorrow', '2027/01/01', '20270101', "2027-01-01' or 1=1"])(
    'expiring_before=%s is 422 naming expiring_before',
    async (value) => {
      const res = await h.call(token, { method: 'GET', url: `/inventory-items?expiring_before=${encodeURIComponent(value)}` });
      expectValidation(res, 'expiring_before');
      expect(res.headers['x-total-count']).toBeUndefined();
    },
  );

  it.each(['name ', 'NAME', 'price', '--name', '+name', 'name,updated_at', 'expiration', "name'"])(
    'sort=%s is 422 naming sort',
    async (value) => {
      expectValidation(await h.call(token, { method: 'GET', url: `/inventory-items?sort=${encodeURIComponent(value)}` }), 'sort');
    },
  );

  it.each(['yes', '2', 'truee', ''])('below_minimum=%s is 422 naming below_minimum', async (value) => {
    expectValidation(await h.call(token, { method: 'GET', url: `/inventory-items?below_minimum=${value}` }), 'below_minimum');
  });

  it('type_id and location_id that name nothing (even not UUIDs) give [] and a total of 0, as lab_id does', async () => {
    for (const param of ['type_id', 'location_id', 'lab_id']) {
      for (const value of ['not-an-id', '', "' OR 1=1 --", '5b0c1e0a-8f57-4c43-9a0e-2a5d6b1c9e7f']) {
        const r = await listItems(h, token, { [param]: value });
        expect(r.status, `${param}=${value}: ${r.body}`).toBe(200);
        expect(r.items).toEqual([]);
        expect(r.total).toBe(0);
      }
    }
  });

  it('401 without a valid token, whatever the filters', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const t of [null, 'lst_unknown', revoked]) {
      const res = await h.call(t, { method: 'GET', url: '/inventory-items?q=sodium&sort=name&below_minimum=true' });
      expectError(res, 401, 'unauthorized');
      expect(res.body).not.toContain('Sodium');
    }
  });

  it('searching changes nothing', async () => {
    const before = await dbState(h);
    await listItems(h, token, { q: "'; drop table inventory_items; --" });
    await listItems(h, token, { q: 'sodium', sort: '-expiration_date', below_minimum: 'true', expiring_before: '2030-01-01' });
    expect(await dbState(h)).toEqual(before);
  });
});
