import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createToken, createUser } from '../../src/accounts/service.js';
import { importCatalogue } from '../../src/catalogue/service.js';
import { createLab } from '../../src/labs/service.js';
import { buildApp } from '../../src/server/app.js';
import { systemActor } from '../../src/shared/actor.js';
import { loadConfig } from '../../src/shared/config.js';
import { createType } from '../../src/types/service.js';
import { cliEnv, cliFailure, cliJson } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { orgAdminActor } from '../helpers/fixtures.js';
import { TEST_ENV } from '../helpers/harness.js';

// `labstock admin operator …` through the real binary (dist/): operators, their lso_ tokens and the audit trail,
// with the tokens tried against the API (docs/decisions/0004-operators.md).
let database: TestDatabase;
let env: NodeJS.ProcessEnv;

const cli = (...args: string[]) => cliJson(env, ...args);
const cliFails = (...args: string[]) => cliFailure(env, ...args);

beforeAll(async () => {
  database = await createTestDatabase();
  env = cliEnv(database);
});
afterAll(async () => {
  await database?.drop();
});

describe('labstock admin operator', () => {
  it('creates an operator and tokens that fulfil and do nothing else; revoke, disable and audit', async () => {
    const db = database.handle.db;
    const config = loadConfig({ ...TEST_ENV, DATABASE_URL: database.url });
    const org = await createOrganization(db, systemActor('cli'), { name: 'Operator U' });
    const user = await createUser(db, systemActor('cli'), {
      organizationId: org.id,
      email: 'lab@example.org',
      firstName: 'L',
      lastName: 'Ab',
      role: 'admin',
    });
    const userToken = (await createToken(db, systemActor('cli'), { userId: user.id, organizationId: org.id, name: 'lab' })).token;
    const lab = await createLab(db, orgAdminActor(org.id, user.id), { organizationId: org.id, name: 'Bench' });
    const type = await createType({ db, config }, orgAdminActor(org.id, user.id), { labId: lab.id, name: 'Consumable' });
    await importCatalogue({ db, config }, systemActor('cli'), [
      {
        item_name: 'Tips',
        catalog_number: 'T200',
        vendor_name: 'Sartorius',
        unit_name: 'pieces',
        unit_symbol: 'pcs',
        unit_amount: '960',
        price_amount: '4500',
        currency: 'EUR',
      },
    ]);

    const op = await cli('admin', 'operator', 'create', '--email', 'Ops@Example.org', '--first-name', 'Op', '--last-name', 'Erator');
    expect(op).toMatchObject({ email: 'ops@example.org', first_name: 'Op', disabled_at: null });
    expect(
      await cliFails('admin', 'operator', 'create', '--email', 'ops@example.org', '--first-name', 'Op', '--last-name', 'Erator'),
    ).toContain('already exists');
    expect((await cli('admin', 'operator', 'list')).map((o: { id: string }) => o.id)).toEqual([op.id]);

    const t1 = await cli('admin', 'operator', 'token', 'create', '--operator', op.id, '--name', 'desk');
    const t2 = await cli('admin', 'operator', 'token', 'create', '--operator', 'ops@example.org');
    expect(t1.token).toMatch(/^lso_/);
    const tokens = await cli('admin', 'operator', 'token', 'list', '--operator', op.id);
    expect(tokens.map((t: { id: string }) => t.id).sort()).toEqual([t1.id, t2.id].sort());
    expect(JSON.stringify(tokens)).not.toContain(t1.token);
    expect(JSON.stringify(tokens)).not.toContain('token_hash');

    const app = await buildApp({ config, db });
    try {
      const call = (token: string, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>, requestId?: string) =>
        app.inject({
          method,
          url,
          headers: { 'access-token': token, ...(requestId ? { 'x-request-id': requestId } : {}) },
          ...(payload ? { payload } : {}),
        });
      const product = (await call(userToken, 'GET', '/shop/products')).json()[0];
      const request = await call(userToken, 'POST', '/order-requests', {
        lab_id: lab.id,
        type_id: type.id,
        name: 'Tips',
        vendor_name: 'Sartorius',
        catalog_number: 'T200',
        vendor_product_id: product.id,
        price: { amount: '45.00', currency: 'EUR' },
        quantity: 2,
      });
      const order = await call(userToken, 'POST', '/shop/orders', {
        lab_id: lab.id,
        order_request_ids: [request.json().id],
        payment_method: 'CREDIT_CARD',
      });
      expect(order.statusCode, order.body).toBe(201);
      const lineId = order.json().items[0].id;

      expect((await call(t1.token, 'GET', '/shop/order-items', undefined, 'cli-list-1')).statusCode).toBe(200);
      expect((await call(t1.token, 'GET', '/labs')).statusCode).toBe(403);
      expect((await call(userToken, 'GET', '/shop/order-items')).statusCode).toBe(403);
      const shipped = await call(
        t1.token,
        'POST',
        `/shop/order-items/${lineId}/shipments`,
        { carrier: 'DHL', tracking: 'J1', quantity: 2 },
        'cli-ship-1',
      );
      expect(shipped.statusCode, shipped.body).toBe(201);
      const refused = await call(t2.token, 'POST', `/shop/order-items/${lineId}/cancel`, {}, 'cli-cancel-1');
      expect(refused.statusCode).toBe(409);

      const audit = await cli('admin', 'operator', 'audit', '--operator', op.id);
      const byRequest = (id: string) => audit.filter((a: { request_id: string | null }) => a.request_id === id);
      expect(byRequest('cli-list-1')).toEqual([
        expect.objectContaining({ action: 'lines.list', outcome: 'ok', token_id: t1.id, via: 'api', operator_id: op.id }),
      ]);
      expect(byRequest('cli-ship-1')).toEqual([
        expect.objectContaining({
          action: 'line.ship',
          outcome: 'ok',
          token_id: t1.id,
          sales_order_item_id: lineId,
          shipment_id: shipped.json().id,
          detail: expect.objectContaining({ carrier: 'DHL', tracking: 'J1', quantity: 2 }),
        }),
      ]);
      expect(byRequest('cli-cancel-1')).toEqual([
        expect.objectContaining({ action: 'line.cancel', outcome: 'conflict', token_id: t2.id, sales_order_item_id: lineId }),
      ]);
      expect((await cli('admin', 'operator', 'audit', '--line', lineId)).map((a: { action: string }) => a.action)).toEqual([
        'line.cancel',
        'line.ship',
      ]);
      expect(await cli('admin', 'operator', 'audit', '--operator', op.id, '--limit', '1')).toHaveLength(1);
      expect(await cliFails('admin', 'operator', 'audit', '--limit', '0')).toContain('--limit');

      const revoked = await cli('admin', 'operator', 'token', 'revoke', '--token-id', t1.id);
      expect(revoked.revoked_at).toBeTruthy();
      expect((await call(t1.token, 'GET', '/shop/order-items')).statusCode).toBe(401);
      expect((await call(t2.token, 'GET', '/shop/order-items')).statusCode).toBe(200);

      const disabled = await cli('admin', 'operator', 'disable', '--operator', 'ops@example.org');
      expect(disabled.disabled_at).toBeTruthy();
      expect((await call(t2.token, 'GET', '/shop/order-items')).statusCode).toBe(401);
      expect(await cliFails('admin', 'operator', 'token', 'create', '--operator', op.id)).toContain('disabled');
      expect(await cliFails('admin', 'shop', 'lines', '--operator', op.id)).toContain('disabled');
      expect(
        (await cli('admin', 'operator', 'token', 'list', '--operator', op.id)).every(
          (t: { revoked_at: string | null }) => t.revoked_at !== null,
        ),
      ).toBe(true);

      // Management is audited too, as done from the command line.
      const management = (await cli('admin', 'operator', 'audit', '--operator', op.id)).filter((a: { via: string }) => a.via === 'cli');
      expect(management.map((a: { action: string }) => a.action)).toEqual([
        'operator.disabled',
        'token.revoked',
        'token.created',
        'token.created',
        'operator.created',
      ]);
      expect(management[0].detail).toEqual({ tokens_revoked: 1 });
    } finally {
      await app.close();
    }
  });
});
