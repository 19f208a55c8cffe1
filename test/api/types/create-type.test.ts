// POST /types {lab_id, name}: PRODUCT §5 (types create) and §7 (type.created, data.type with lab).

import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokedToken } from '../../helpers/data.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { eventsOfType, expectEnvelope } from '../../helpers/events.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { createOrder, orderBody } from '../../helpers/orders.js';
import { expectLabShape, keysOf, labJson, UNKNOWN_ID, UUID_RE } from '../../helpers/shapes.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const post = (token: string | null, payload: unknown, extra: Partial<InjectOptions> = {}) =>
  h.call(token, { method: 'POST', url: '/types', payload: payload as any, ...extra });

async function state() {
  const [types, events] = await Promise.all([
    h.deps.db.selectFrom('types').selectAll().orderBy('id').execute(),
    h.deps.db.selectFrom('events').select(['id']).orderBy('id').execute(),
  ]);
  return { types, events: events.map((e) => e.id) };
}

/** Sends the request and asserts no type and no event was written. */
async function unchanged(token: string | null, payload: unknown, extra: Partial<InjectOptions> = {}) {
  const before = await state();
  const res = await post(token, payload, extra);
  expect(await state()).toEqual(before);
  return res;
}

const createdEventsFor = async (typeId: string) =>
  (await eventsOfType(h, 'com.labstock.type.created')).filter((e) => e.event.data?.type?.id === typeId);

describe('happy', () => {
  it('201 with {id, name, lab}, a Location header, and the type is listed', async () => {
    const res = await post(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'Solvent' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(keysOf(body)).toEqual(['id', 'lab', 'name']);
    expect(body.id).toMatch(UUID_RE);
    expect(body).toEqual({ id: body.id, name: 'Solvent', lab: labJson(h.a.legacyLab.id, 'Legacy lab A', h.a, 'A', false) });
    expectLabShape(body.lab);
    expect(res.headers.location).toBe(`/types/${body.id}`);

    const list = await h.call(h.a.admin.token, { method: 'GET', url: `/types?lab_id=${h.a.legacyLab.id}&name=solvent` });
    expect(list.json()).toEqual([body]);
  });

  it('emits exactly one type.created whose data.type is the response, including the lab with uses_instances', async () => {
    const before = (await eventsOfType(h, 'com.labstock.type.created')).length;
    const res = await post(h.a.admin.token, { lab_id: h.a.migratedLab.id, name: 'Primary antibody' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    const all = await eventsOfType(h, 'com.labstock.type.created');
    expect(all).toHaveLength(before + 1);
    const mine = await createdEventsFor(body.id);
    expect(mine).toHaveLength(1);
    expectEnvelope(mine[0]!, 'com.labstock.type.created', 'type');
    expect(mine[0]!.event.data.type).toEqual(body);
    expect(mine[0]!.event.data.type.lab).toEqual(labJson(h.a.migratedLab.id, 'Migrated lab A', h.a, 'A', true));
    expect(mine[0]!.row.lab_id).toBe(h.a.migratedLab.id);
    expect(mine[0]!.row.organization_id).toBe(h.a.orgId);
  });

  it('a member creates a type in a lab they belong to', async () => {
    const res = await post(h.a.member.token, { lab_id: h.a.legacyLab.id, name: 'Consumable' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().lab.id).toBe(h.a.legacyLab.id);
    expect(await createdEventsFor(res.json().id)).toHaveLength(1);
  });

  it('names are unique per lab only: "Reagent" exists in the legacy lab and can be created in the migrated lab', async () => {
    const res = await post(h.a.admin.token, { lab_id: h.a.migratedLab.id, name: 'Reagent' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().name).toBe('Reagent');
  });

  it('surrounding whitespace is trimmed from the name', async () => {
    const res = await post(h.a.admin.token, { lab_id: h.a.otherLab.id, name: '  Plasticware  ' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().name).toBe('Plasticware');
    expect((await createdEventsFor(res.json().id))[0]!.event.data.type.name).toBe('Plasticware');
  });

  it('the new type can be used right away by an order request of its lab', async () => {
    const type = (await post(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'Glassware' })).json();
    const order = await createOrder(h, h.a.admin.token, orderBody({ id: h.a.legacyLab.id, typeId: type.id }));
    expect(order.type).toEqual({ id: type.id, name: 'Glassware' });
  });

  it('Idempotency-Key: a retried create replays the first 201 and creates one type and one event', async () => {
    const send = () =>
      post(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'Retried type' }, { headers: { 'idempotency-key': 'type-retry-1' } });
    const first = await send();
    expect(first.statusCode, first.body).toBe(201);
    const second = await send();
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json()).toEqual(first.json());
    const list = await h.call(h.a.admin.token, { method: 'GET', url: `/types?lab_id=${h.a.legacyLab.id}&name=retried%20type` });
    expect(list.json()).toHaveLength(1);
    expect(await createdEventsFor(first.json().id)).toHaveLength(1);
  });
});

describe('errors', () => {
  it.each(['Reagent', 'reagent', 'REAGENT', '  reAgent '])(
    '409 conflict for "%s": the lab already has "Reagent" (case-insensitive); nothing written',
    async (name) => {
      expectError(await unchanged(h.a.admin.token, { lab_id: h.a.legacyLab.id, name }), 409, 'conflict');
    },
  );

  it('409 for a name that differs only in case from a type created through the API', async () => {
    const first = await post(h.a.admin.token, { lab_id: h.a.otherLab.id, name: 'Enzyme Kit' });
    expect(first.statusCode, first.body).toBe(201);
    expectError(await unchanged(h.a.admin.token, { lab_id: h.a.otherLab.id, name: 'ENZYME KIT' }), 409, 'conflict');
  });

  it('concurrent creates of one name (in different cases): exactly one 201, the others 409 conflict, one type, one event', async () => {
    const names = ['Cryo box', 'cryo box', 'CRYO BOX', 'Cryo Box', 'cryo BOX', ' Cryo box'];
    const before = (await eventsOfType(h, 'com.labstock.type.created')).length;
    const results = await Promise.all(names.map((name) => post(h.a.admin.token, { lab_id: h.a.migratedLab.id, name })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) expectError(r, 409, 'conflict');
    const list = await h.call(h.a.admin.token, { method: 'GET', url: `/types?lab_id=${h.a.migratedLab.id}&name=cryo%20box` });
    expect(list.json()).toHaveLength(1);
    expect(await eventsOfType(h, 'com.labstock.type.created')).toHaveLength(before + 1);
  });

  it('422 naming name when it is missing, empty, blank, too long or not a string', async () => {
    for (const payload of [
      { lab_id: h.a.legacyLab.id },
      { lab_id: h.a.legacyLab.id, name: '' },
      { lab_id: h.a.legacyLab.id, name: '   ' },
      { lab_id: h.a.legacyLab.id, name: 'x'.repeat(201) },
      { lab_id: h.a.legacyLab.id, name: 7 },
      { lab_id: h.a.legacyLab.id, name: null },
    ]) {
      expectValidation(await unchanged(h.a.admin.token, payload), 'name');
    }
  });

  it('422 naming lab_id when it is missing or not a UUID', async () => {
    expectValidation(await unchanged(h.a.admin.token, { name: 'No lab' }), 'lab_id');
    expectValidation(await unchanged(h.a.admin.token, { lab_id: 'abc', name: 'Bad lab' }), 'lab_id');
  });

  it('422 naming unknown body fields', async () => {
    expectValidation(await unchanged(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'Colored', color: 'red' }), 'color');
    expectValidation(
      await unchanged(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'With lab', lab: { id: h.a.legacyLab.id } }),
      'lab',
    );
  });

  it('404 for a lab that does not exist', async () => {
    expectError(await unchanged(h.a.admin.token, { lab_id: UNKNOWN_ID, name: 'Ghost' }), 404, 'not_found');
  });

  it('400 for malformed JSON and 415 for a non-JSON body', async () => {
    expectError(await unchanged(h.a.admin.token, '{"lab_id":', { headers: { 'content-type': 'application/json' } }), 400);
    expectError(await unchanged(h.a.admin.token, 'name=x', { headers: { 'content-type': 'text/plain' } }), 415);
  });
});

describe('security', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing written', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) {
      expectError(await unchanged(token, { lab_id: h.a.legacyLab.id, name: 'Unauthorized' }), 401, 'unauthorized');
    }
  });

  it('org A tokens get 404 for every org B lab, and nothing is created there', async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const lab of [h.b.legacyLab, h.b.migratedLab, h.b.otherLab]) {
        expectError(await unchanged(token, { lab_id: lab.id, name: 'Intruder' }), 404, 'not_found');
      }
    }
    const bTypes = await h.call(h.b.admin.token, { method: 'GET', url: '/types?name=intruder' });
    expect(bTypes.json()).toEqual([]);
  });

  it('the member gets 404 for the lab they do not belong to; the outsider for every lab', async () => {
    expectError(await unchanged(h.a.member.token, { lab_id: h.a.otherLab.id, name: 'Sneaky' }), 404, 'not_found');
    for (const lab of [h.a.legacyLab, h.a.migratedLab, h.a.otherLab]) {
      expectError(await unchanged(h.a.outsider.token, { lab_id: lab.id, name: 'Sneaky' }), 404, 'not_found');
    }
  });
});
