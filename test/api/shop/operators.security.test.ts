// Operators are service principals (docs/decisions/0004-operators.md): their lso_ tokens act only on shop
// fulfilment, tenant tokens never fulfil, revoked tokens and disabled operators are refused. The routes are read
// from the OpenAPI document, so a route added later is covered without editing this file.

import { beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser } from '../../../src/accounts/service.js';
import {
  createOperator,
  createOperatorToken,
  disableOperator,
  revokeOperatorToken,
  setUserOperator,
} from '../../../src/operators/service.js';
import { systemActor } from '../../../src/shared/actor.js';
import { leakedSecrets, prepareTenant, snapshotDb, snapshotDiff, type Tenant } from '../../helpers/operations.js';
import { h, placeOne, shop, useShop } from './_setup.js';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
interface Route {
  method: Method;
  path: string;
  fulfilment: boolean;
}

/** Every operation of the OpenAPI document; fulfilment is what the 'Shop fulfilment' tag marks. */
async function routes(): Promise<Route[]> {
  const doc = (await h.call(null, { method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, Record<string, { tags?: string[]; security?: unknown[] }>>;
  };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => !(Array.isArray(op.security) && op.security.length === 0))
      .map(([method, op]) => ({ method: method.toUpperCase() as Method, path, fulfilment: (op.tags ?? []).includes('Shop fulfilment') })),
  );
}

// Tables an authenticated request may touch without acting: a token's last use, and the audit of operators.
const withoutBookkeeping = (snapshot: Awaited<ReturnType<typeof snapshotDb>>) => {
  const { operator_tokens: _t, access_tokens: _a, ...rest } = snapshot;
  return rest;
};

describe('operator tokens act only on shop fulfilment', () => {
  useShop();
  let tenant: Tenant;
  let lineId: string;
  let shipmentId: string;
  let all: Route[];
  /** A real id for each path parameter, so a route that answered would have data to leak. */
  let fill: (path: string) => string;

  beforeAll(async () => {
    tenant = await prepareTenant(h, h.a);
    const placed = await placeOne(h, h.a.admin.token, h.a.legacyLab, shop.products.M0530S!, 3);
    lineId = placed.line.id;
    const s = await h.call(shop.operator.token, {
      method: 'POST',
      url: `/shop/order-items/${lineId}/shipments`,
      payload: { carrier: 'UPS', tracking: '1', quantity: 1 },
    });
    expect(s.statusCode, s.body).toBe(201);
    shipmentId = s.json().id;
    tenant.secrets.push(h.a.admin.email, placed.order.id, placed.requestId);
    const ids: Record<string, string> = {
      labs: h.a.legacyLab.id,
      'inventory-items': h.a.legacyLab.itemId,
      'order-requests': tenant.ids.orderId,
      webhooks: tenant.ids.webhookId,
      types: h.a.legacyLab.typeId,
      locations: h.a.migratedLab.locationIds[0]!,
      instances: h.a.migratedLab.instanceIds[0]!,
      organizations: h.a.orgId,
      orders: placed.order.id,
      products: shop.products.M0530S!,
      'order-items': lineId,
      shipments: shipmentId,
    };
    fill = (path) => path.replace(/\/([\w-]+)\/\{(\w+)\}/g, (_m, seg: string) => `/${seg}/${ids[seg] ?? h.a.legacyLab.id}`);
    all = await routes();
    // snapshotDb lists the tables once per harness; on PostgreSQL that listing can fail while another test file
    // drops its schema (src/shared/db/database.ts, introspectingOnly), so it is taken here, with a retry.
    for (let attempt = 1; ; attempt++) {
      try {
        await snapshotDb(h);
        break;
      } catch (err) {
        if (attempt >= 3) throw err;
      }
    }
  });

  it('the route list covers the tenant routes and the five fulfilment routes', () => {
    const keys = all.map((r) => `${r.method} ${r.path}`);
    for (const k of [
      'GET /labs',
      'GET /inventory-items',
      'GET /order-requests',
      'GET /webhooks',
      'GET /user',
      'POST /shop/orders',
      'GET /shop/products',
    ])
      expect(keys).toContain(k);
    expect(
      all
        .filter((r) => r.fulfilment)
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual([
      'GET /shop/order-items',
      'POST /shop/order-items/{id}/backorder',
      'POST /shop/order-items/{id}/cancel',
      'POST /shop/order-items/{id}/shipments',
      'POST /shop/shipments/{id}/deliver',
    ]);
  });

  it('403 on every tenant route, in either credential header, with no data and no change', async () => {
    await h.call(shop.operator.token, { method: 'GET', url: '/shop/order-items?per_page=1' }); // its last use is recorded now, not below
    const before = withoutBookkeeping(await snapshotDb(h));
    const tenantRoutes = all.filter((r) => !r.fulfilment);
    expect(tenantRoutes.length).toBeGreaterThan(15);
    for (const route of tenantRoutes) {
      const url = fill(route.path);
      const payload =
        route.method === 'GET'
          ? undefined
          : { lab_id: h.a.legacyLab.id, organization_id: h.a.orgId, name: 'x', url: 'https://hooks.example.org/x' };
      for (const headers of [{}, { authorization: `Bearer ${shop.operator.token}` }]) {
        const res = await h.call(Object.keys(headers).length ? null : shop.operator.token, {
          method: route.method,
          url,
          headers,
          ...(payload ? { payload } : {}),
        });
        expect(res.statusCode, `${route.method} ${url}: ${res.body}`).toBe(403);
        expect(res.json()).toEqual({
          code: 'forbidden',
          message: expect.stringContaining('operator token acts only on shop fulfilment'),
          request_id: expect.any(String),
        });
        expect(leakedSecrets(res, tenant.secrets), `${route.method} ${url}`).toEqual([]);
      }
    }
    expect(snapshotDiff(before, withoutBookkeeping(await snapshotDb(h)))).toBeNull();
  });

  it("403 on every fulfilment route for tenant tokens: org admins, members, and a user whose e-mail is an operator's", async () => {
    // Same e-mail as an operator principal: the user's own token is still a tenant token.
    const twin = await createUser(h.deps.db, systemActor('cli'), {
      organizationId: h.a.orgId,
      email: 'twin@example.org',
      firstName: 'Tw',
      lastName: 'In',
      role: 'admin',
    });
    const twinOperator = await setUserOperator(h.deps.db, systemActor('cli'), twin.id, true);
    expect(twinOperator?.email).toBe('twin@example.org');
    const twinToken = (await createToken(h.deps.db, systemActor('cli'), { userId: twin.id, organizationId: h.a.orgId, name: 'own' })).token;
    const before = withoutBookkeeping(await snapshotDb(h));
    const audits = (await h.deps.db.selectFrom('operator_audit').select('id').execute()).length;
    const fulfilment = all.filter((r) => r.fulfilment);
    for (const token of [h.a.admin.token, h.a.member.token, h.b.admin.token, h.b.outsider.token, twinToken]) {
      for (const route of fulfilment) {
        const url = fill(route.path);
        const res = await h.call(token, {
          method: route.method,
          url,
          ...(route.method === 'POST' ? { payload: { carrier: 'UPS', tracking: 'T', quantity: 1 } } : {}),
        });
        expect(res.statusCode, `${route.method} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'forbidden', message: 'Shop fulfilment is done by service operators' });
        expect(res.body).not.toContain(lineId);
      }
    }
    expect(snapshotDiff(before, withoutBookkeeping(await snapshotDb(h)))).toBeNull();
    expect(await h.deps.db.selectFrom('operator_audit').select('id').execute()).toHaveLength(audits);
  });

  it('401 for a revoked operator token, for every token of a disabled operator, and for unknown lso_ tokens', async () => {
    const op = await createOperator(h.deps.db, systemActor('cli'), {
      email: 'temp-operator@labstock.test',
      firstName: 'Tem',
      lastName: 'Porary',
    });
    const first = await createOperatorToken(h.deps.db, systemActor('cli'), { operator: op.id, name: 'first' });
    const second = await createOperatorToken(h.deps.db, systemActor('cli'), { operator: op.id, name: 'second' });
    expect(first.token).toMatch(/^lso_/);
    const list = (token: string) => h.call(token, { method: 'GET', url: '/shop/order-items' });
    expect((await list(first.token)).statusCode).toBe(200);

    await revokeOperatorToken(h.deps.db, systemActor('cli'), first.id);
    for (const route of all.filter((r) => r.fulfilment)) {
      const res = await h.call(first.token, {
        method: route.method,
        url: fill(route.path),
        ...(route.method === 'POST' ? { payload: {} } : {}),
      });
      expect(res.statusCode, `${route.method} ${route.path}`).toBe(401);
      expect(res.json().code).toBe('unauthorized');
    }
    expect((await list(second.token)).statusCode).toBe(200);

    await disableOperator(h.deps.db, systemActor('cli'), op.id);
    expect((await list(second.token)).statusCode).toBe(401);
    expect((await h.call(second.token, { method: 'POST', url: `/shop/order-items/${lineId}/cancel`, payload: {} })).statusCode).toBe(401);
    // Enabling the operator again does not bring its tokens back: disabling revoked them.
    await createOperator(h.deps.db, systemActor('cli'), { email: 'temp-operator@labstock.test', firstName: 'Tem', lastName: 'Porary' });
    expect((await list(second.token)).statusCode).toBe(401);
    expect((await list((await createOperatorToken(h.deps.db, systemActor('cli'), { operator: op.id })).token)).statusCode).toBe(200);

    for (const fake of ['lso_', `lso_${'A'.repeat(43)}`, `lso_${h.a.admin.token}`, h.a.admin.token.replace(/^lst_/, 'lso_')]) {
      expect((await list(fake)).statusCode, fake).toBe(401);
    }
    // A tenant token is never looked up as an operator's, nor the other way round.
    expect((await h.call(shop.operator.token.replace(/^lso_/, 'lst_'), { method: 'GET', url: '/labs' })).statusCode).toBe(401);
  });
});

describe('operator tokens are rate limited per token', () => {
  useShop({ RATE_LIMIT_PER_MINUTE: '3' });

  it("the fourth request of a minute is 429, like a tenant token's; another operator token is counted apart", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await h.call(shop.operator.token, { method: 'GET', url: '/shop/order-items' })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const other = await createOperatorToken(h.deps.db, systemActor('cli'), { operator: shop.operator.id, name: 'second' });
    expect((await h.call(other.token, { method: 'GET', url: '/shop/order-items' })).statusCode).toBe(200);
  });
});
