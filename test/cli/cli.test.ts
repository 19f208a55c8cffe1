import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/shared/config.js';
import { cliEnv, cliFailure, cliJson } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { TEST_ENV } from '../helpers/harness.js';

// The real binary (dist/, built by `npm test` before vitest runs) against the test's own database.
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

describe('labstock admin', () => {
  it('creates an organization, users, a lab, a membership and a token that works against the API', async () => {
    const org = await cli('admin', 'org', 'create', '--name', 'CLI University');
    expect(org).toMatchObject({ name: 'CLI University' });
    const admin = await cli(
      'admin',
      'user',
      'create',
      '--org',
      org.id,
      '--email',
      'Root@Example.org',
      '--first-name',
      'Rosalind',
      '--last-name',
      'Franklin',
      '--role',
      'admin',
      '--operator',
    );
    expect(admin).toMatchObject({ email: 'root@example.org', role: 'admin', is_operator: true, operator_id: expect.any(String) });
    const member = await cli(
      'admin',
      'user',
      'create',
      '--org',
      org.id,
      '--email',
      'm@example.org',
      '--first-name',
      'M',
      '--last-name',
      'Ember',
    );
    expect(member.role).toBe('member');
    const lab = await cli('admin', 'lab', 'create', '--org', org.id, '--name', 'Crystallography', '--uses-instances');
    expect(lab).toMatchObject({ name: 'Crystallography', uses_instances: true, organization: { id: org.id } });
    expect(await cli('admin', 'lab', 'add-member', '--lab', lab.id, '--user', member.id)).toMatchObject({ added: true });
    expect(await cli('admin', 'lab', 'add-member', '--lab', lab.id, '--user', member.id)).toMatchObject({ added: false });

    const token = await cli('admin', 'token', 'create', '--user', member.id, '--org', org.id, '--name', 'laptop');
    expect(token.token).toMatch(/^lst_/);
    const listed = await cli('admin', 'token', 'list', '--user', member.id);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(token.token);

    expect((await cli('admin', 'org', 'list')).map((o: any) => o.id)).toContain(org.id);
    expect((await cli('admin', 'user', 'list', '--org', org.id)).map((u: any) => u.email).sort()).toEqual([
      'm@example.org',
      'root@example.org',
    ]);
    expect(await cli('admin', 'lab', 'list', '--org', org.id)).toHaveLength(1);

    const config = loadConfig({ ...TEST_ENV, DATABASE_URL: database.url });
    const app = await buildApp({ config, db: database.handle.db });
    try {
      const labs = await app.inject({ method: 'GET', url: '/labs', headers: { 'access-token': token.token } });
      expect(labs.json().map((l: any) => l.id)).toEqual([lab.id]);
      const revoked = await cli('admin', 'token', 'revoke', '--token-id', token.id);
      expect(revoked.revoked_at).toBeTruthy();
      const after = await app.inject({ method: 'GET', url: '/labs', headers: { 'access-token': token.token } });
      expect(after.statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('fails with a clear message and exit code 1', async () => {
    expect(await cliFails('admin', 'lab', 'create', '--org', '00000000-0000-7000-8000-000000000000', '--name', 'X')).toMatch(
      /organization not found/,
    );
    expect(
      await cliFails('admin', 'user', 'create', '--org', 'x', '--email', 'not-an-email', '--first-name', 'a', '--last-name', 'b'),
    ).toMatch(/e-mail/);
  });

  it('refuses bad configuration before touching anything', async () => {
    const stderr = await cliFailure({ ...env, PORT: 'eighty', LOG_LEVEL: 'loud' }, 'migrate');
    expect(stderr).toMatch(/PORT/);
    expect(stderr).toMatch(/LOG_LEVEL/);
  });
});

describe('labstock demo', () => {
  it('seeds a legacy and a migrated lab, deep locations, requests in several states and a catalogue', async () => {
    const demo = await cli('demo');
    expect(demo.token).toMatch(/^lst_/);
    const config = loadConfig({ ...TEST_ENV, DATABASE_URL: database.url });
    const app = await buildApp({ config, db: database.handle.db });
    try {
      const get = (url: string) => app.inject({ method: 'GET', url, headers: { 'access-token': demo.token } }).then((r) => r.json());
      const labs = await get('/labs');
      // A legacy lab, a migrated one, and the chemistry lab of the safety features (src/demo/chemistry.ts).
      expect(labs.map((l: any) => [l.name, l.uses_instances]).sort()).toEqual([
        ['Chemistry Teaching Lab', false],
        ['Molecular Biology Lab', true],
        ['Organic Chemistry Lab', true],
      ]);
      // The printed sign-in works (docs/auth.md).
      expect(demo.sign_in.email).toBe('ada.admin@demo.labstock.test');
      const signIn = await app.inject({ method: 'POST', url: '/auth/sign-in', payload: demo.sign_in });
      expect(signIn.statusCode, signIn.body).toBe(200);
      // Two people who have joined, and one invited who has not.
      const people = await get('/organization/users');
      expect(people.map((u: any) => [u.email, u.invitation_expires_at === null])).toEqual([
        ['ada.admin@demo.labstock.test', true],
        ['max.member@demo.labstock.test', true],
        ['rosalind.franklin@demo.labstock.test', false],
      ]);
      const items = await get(`/inventory-items?lab_id=${demo.migrated_lab_id}`);
      const depths = items.flatMap((i: any) => i.instances.map((x: any) => x.location?.pathNames.length ?? 0));
      expect(Math.max(...depths)).toBeGreaterThanOrEqual(3);
      const orders = await get('/order-requests?per_page=100');
      expect(new Set(orders.map((o: any) => o.status)).size).toBeGreaterThanOrEqual(4);
      const products = await database.handle.db.selectFrom('vendor_products').selectAll().execute();
      expect(products.length).toBeGreaterThanOrEqual(3);
      const sale = await get(`/shop/orders/${demo.sales_order_id}`);
      expect(sale).toMatchObject({
        purchase_order_number: 'PO-DEMO-1',
        items: [{ id: demo.sales_order_item_id, status: 'PLACED', request: { status: 'ORDERED' } }],
      });
      // The printed ship command works with the operator token only.
      expect(demo.operator_token).toMatch(/^lso_/);
      const ship = (token: string) =>
        app.inject({
          method: 'POST',
          url: `/shop/order-items/${demo.sales_order_item_id}/shipments`,
          headers: { 'access-token': token },
          payload: { carrier: 'UPS', tracking: '1Z999', quantity: 2 },
        });
      expect((await ship(demo.token)).statusCode).toBe(403);
      expect((await ship(demo.operator_token)).statusCode).toBe(201);
      expect((await app.inject({ method: 'GET', url: '/labs', headers: { 'access-token': demo.operator_token } })).statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });
});
