import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createToken, createUser } from '../../src/accounts/service.js';
import { addMember, createLab } from '../../src/labs/service.js';
import { setUserOperator } from '../../src/operators/service.js';
import { buildApp } from '../../src/server/app.js';
import { systemActor } from '../../src/shared/actor.js';
import { loadConfig } from '../../src/shared/config.js';
import { cliEnv, cliFailure, cliJson } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { TEST_ENV } from '../helpers/harness.js';

// Operator work through the real binary (dist/): catalogue import and fulfilment, checked through the API.
let database: TestDatabase;
let env: NodeJS.ProcessEnv;
let dir: string;

const cli = (...args: string[]) => cliJson(env, ...args);
const cliFails = (...args: string[]) => cliFailure(env, ...args);

beforeAll(async () => {
  database = await createTestDatabase();
  env = cliEnv(database);
  dir = await mkdtemp(path.join(tmpdir(), 'labstock-shop-'));
});
afterAll(async () => {
  await database?.drop();
});

const products = () => database.handle.db.selectFrom('vendor_products').selectAll().orderBy('catalog_number').execute();

describe('labstock admin shop', () => {
  it('imports a CSV catalogue, re-imports JSON updating in place, and refuses a bad file without changing anything', async () => {
    const csv = path.join(dir, 'catalogue.csv');
    await writeFile(
      csv,
      [
        'item_name,catalog_number,vendor_name,unit_name,unit_symbol,unit_amount,price,currency',
        '"Tips, 200 µL",T200,Sartorius,pieces,pcs,960,45.00,EUR',
        'Agarose,A9539,Sigma-Aldrich,grams,g,100,156,USD',
        '',
        'Phusion polymerase,M0530S,New England Biolabs,units,U,100,279.00,USD',
      ].join('\n'),
    );
    expect(await cli('admin', 'shop', 'import', '--file', csv)).toEqual({ rows: 3, created: 3, updated: 0 });
    const first = await products();
    expect(first.map((p) => [p.catalog_number, p.item_name, p.price_amount, p.currency, p.unit_amount])).toEqual([
      ['A9539', 'Agarose', '15600', 'USD', '100'],
      ['M0530S', 'Phusion polymerase', '27900', 'USD', '100'],
      ['T200', 'Tips, 200 µL', '4500', 'EUR', '960'],
    ]);

    const json = path.join(dir, 'update.json');
    await writeFile(
      json,
      JSON.stringify({
        products: [
          {
            item_name: 'Agarose LE',
            catalog_number: 'A9539',
            vendor_name: 'Sigma-Aldrich',
            unit_name: 'grams',
            unit_symbol: 'g',
            unit_amount: 500,
            price: '612.50',
            currency: 'USD',
          },
          {
            item_name: 'Tris base',
            catalog_number: '4855.2',
            vendor_name: 'Roth',
            unit_name: 'kilograms',
            unit_symbol: 'kg',
            unit_amount: '1',
            price: '49.9',
            currency: 'EUR',
          },
        ],
      }),
    );
    expect(await cli('admin', 'shop', 'import', '--file', json)).toEqual({ rows: 2, created: 1, updated: 1 });
    const second = await products();
    const agarose = second.find((p) => p.catalog_number === 'A9539')!;
    expect(agarose).toMatchObject({ id: first[0]!.id, item_name: 'Agarose LE', price_amount: '61250', unit_amount: '500' });
    expect(second).toHaveLength(4);

    const bad = path.join(dir, 'bad.csv');
    await writeFile(
      bad,
      [
        'item_name,catalog_number,vendor_name,unit_name,unit_symbol,unit_amount,price,currency',
        'Fine,F1,Acme,pieces,pcs,1,1.00,USD',
        'Broken,F2,Acme,pieces,pcs,1,1.999,USD',
        ',F3,Acme,pieces,pcs,1,1.00,XXX',
      ].join('\n'),
    );
    const stderr = await cliFails('admin', 'shop', 'import', '--file', bad);
    expect(stderr).toContain('2 invalid rows');
    expect(stderr).toContain('line 3: price: USD has 2 decimal places');
    expect(stderr).toContain('line 4: item_name: required; currency: "XXX" is not an ISO 4217 code');
    expect(await products()).toEqual(second);
    expect(await cliFails('admin', 'shop', 'import', '--file', path.join(dir, 'catalogue.txt'))).toContain('ENOENT');
  });

  it("an operator ships and delivers from the command line; the lab's request is received", async () => {
    // The organization, its people and lab are made through the services: test/cli/cli.test.ts runs those commands
    // (`user create --operator` included); here each spawn is a fulfilment command under test.
    const db = database.handle.db;
    const cliActor = systemActor('cli');
    const org = await createOrganization(db, cliActor, { name: 'Shop U' });
    const opsUser = await createUser(db, cliActor, {
      organizationId: org.id,
      email: 'ops@example.org',
      firstName: 'O',
      lastName: 'Ps',
      role: 'member',
    });
    // The e-mail's service operator principal, as `user create --operator` makes it.
    const operator = { id: (await setUserOperator(db, cliActor, opsUser.id, true))!.id };
    // An org admin: item types are made by managers and org admins (src/types/service.ts).
    const member = await createUser(db, cliActor, {
      organizationId: org.id,
      email: 'lab@example.org',
      firstName: 'L',
      lastName: 'Ab',
      role: 'admin',
    });
    const lab = await createLab(db, cliActor, { organizationId: org.id, name: 'Bench' });
    await addMember(db, cliActor, lab.id, member.id);
    const token = (await createToken(db, cliActor, { userId: member.id, organizationId: org.id })).token;

    const app = await buildApp({ config: loadConfig({ ...TEST_ENV, DATABASE_URL: database.url }), db: database.handle.db });
    try {
      const call = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
        app.inject({ method, url, headers: { 'access-token': token }, ...(payload ? { payload } : {}) });
      const type = (await call('POST', '/types', { lab_id: lab.id, name: 'Consumable' })).json();
      const product = (await call('GET', '/shop/products?q=tips')).json()[0];
      const request = await call('POST', '/order-requests', {
        lab_id: lab.id,
        type_id: type.id,
        name: 'Tips',
        vendor_name: 'Sartorius',
        catalog_number: 'T200',
        vendor_product_id: product.id,
        price: { amount: '45.00', currency: 'EUR' },
        quantity: 2,
      });
      expect(request.statusCode, request.body).toBe(201);
      const order = await call('POST', '/shop/orders', {
        lab_id: lab.id,
        order_request_ids: [request.json().id],
        payment_method: 'CREDIT_CARD',
      });
      expect(order.statusCode, order.body).toBe(201);
      const lineId = order.json().items[0].id;

      const lines = await cli('admin', 'shop', 'lines', '--operator', operator.id, '--status', 'PLACED');
      expect(lines.map((l: { id: string }) => l.id)).toContain(lineId);
      expect(
        await cliFails(
          'admin',
          'shop',
          'ship',
          '--operator',
          member.id,
          '--line',
          lineId,
          '--carrier',
          'DHL',
          '--tracking',
          'X',
          '--quantity',
          '2',
        ),
      ).toContain(`User ${member.id} is not a service operator`);
      expect(
        await cliFails(
          'admin',
          'shop',
          'ship',
          '--operator',
          operator.id,
          '--line',
          lineId,
          '--carrier',
          'DHL',
          '--tracking',
          'X',
          '--quantity',
          'two',
        ),
      ).toContain('--quantity');

      const shipment = await cli(
        'admin',
        'shop',
        'ship',
        '--operator',
        operator.id,
        '--line',
        lineId,
        '--carrier',
        'DHL',
        '--tracking',
        'JD0001',
        '--quantity',
        '2',
      );
      expect(shipment).toMatchObject({ carrier: 'DHL', tracking: 'JD0001', quantity: 2, delivered_at: null, sales_order_item_id: lineId });
      // By e-mail as well as by id; each action is audited as done from the command line, without a token.
      const delivered = await cli('admin', 'shop', 'deliver', '--operator', 'OPS@example.org', '--shipment', shipment.id);
      expect(delivered.delivered_at).toMatch(/Z$/);

      const after = (await call('GET', `/shop/orders/${order.json().id}`)).json();
      expect(after.items[0]).toMatchObject({ status: 'DELIVERED', request: { status: 'RECEIVED' }, shipments: [{ id: shipment.id }] });
      const items = (await call('GET', `/inventory-items?lab_id=${lab.id}`)).json();
      expect(items).toEqual([expect.objectContaining({ name: 'Tips', quantity: '2', vendor_product_id: product.id })]);
      const types = (await database.handle.db.selectFrom('events').select('type').where('organization_id', '=', org.id).execute()).map(
        (e) => e.type,
      );
      for (const t of [
        'sales-order.placed',
        'shipment.created',
        'sales-order-item.shipped',
        'shipment.delivered',
        'sales-order-item.delivered',
        'order-request.received',
      ]) {
        expect(
          types.filter((x) => x === `com.labstock.${t}`),
          t,
        ).toHaveLength(1);
      }

      const audit = await cli('admin', 'operator', 'audit', '--operator', operator.id, '--line', lineId);
      expect(audit.map((a: { action: string; outcome: string }) => `${a.action} ${a.outcome}`)).toEqual([
        'shipment.deliver ok',
        'line.ship ok',
      ]);
      expect(
        audit.every(
          (a: { via: string; token_id: string | null; request_id: string | null }) =>
            a.via === 'cli' && a.token_id === null && a.request_id === null,
        ),
      ).toBe(true);
      expect(audit[0]).toMatchObject({ operator_id: operator.id, sales_order_item_id: lineId, shipment_id: shipment.id });

      // set-operator (kept for scripts) gives the member's e-mail an operator principal; the CLI then acts as it
      // when given the user id. --off disables it (and would revoke its tokens).
      const on = await cli('admin', 'user', 'set-operator', '--user', member.id);
      expect(on).toEqual({ id: member.id, is_operator: true, operator_id: expect.any(String) });
      expect(on.operator_id).not.toBe(operator.id);
      expect(await cli('admin', 'shop', 'lines', '--operator', member.id, '--status', 'DELIVERED')).toHaveLength(1);
      expect(await cli('admin', 'user', 'set-operator', '--user', member.id, '--off')).toEqual({
        id: member.id,
        is_operator: false,
        operator_id: on.operator_id,
      });
      expect(await cliFails('admin', 'shop', 'lines', '--operator', member.id)).toContain(`Operator ${on.operator_id} is disabled`);
    } finally {
      await app.close();
    }
  });
});
