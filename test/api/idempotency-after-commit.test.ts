import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { ABANDONED_CLAIM_MS } from '../../src/server/idempotency.js';
import { loadConfig } from '../../src/shared/config.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { type OrgFixture, seedOrganization } from '../helpers/fixtures.js';
import { TEST_ENV } from '../helpers/harness.js';

// Issue 9, item 4: a committed change is never done twice for one Idempotency-Key, whatever happens after the
// commit. The failure after the commit is a real one: a preSerialization hook that throws, standing for anything
// that fails between the commit and the answer (a lost connection on the re-read, a response that fails its
// schema). Before the fix the 5xx released the key and the retry created a second request.

let database: TestDatabase;
let app: FastifyInstance;
let a: OrgFixture;

beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig({ ...TEST_ENV, DATABASE_URL: database.url });
  app = await buildApp({ config, db: database.handle.db });
  app.addHook('preSerialization', async (request, _reply, payload) => {
    if (request.headers['x-test-fail-after-commit'] === 'yes') throw new Error('failure after the commit');
    return payload;
  });
  await app.ready();
  a = await seedOrganization({ db: database.handle.db, config }, 'A');
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
});

const body = (name: string) => ({
  lab_id: a.legacyLab.id,
  type_id: a.legacyLab.typeId,
  name,
  vendor_name: 'Eppendorf',
  catalog_number: '0030073061',
  price: { amount: '5900', currency: 'EUR' },
  quantity: 3,
});
const countNamed = async (name: string) =>
  Number(
    (
      await database.handle.db
        .selectFrom('order_requests')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('item_name', '=', name)
        .executeTakeFirstOrThrow()
    ).n,
  );
const countEvents = async () =>
  Number(
    (
      await database.handle.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const post = (key: string, name: string, failAfterCommit: boolean) =>
  app.inject({
    method: 'POST',
    url: '/order-requests',
    payload: body(name),
    headers: { 'access-token': a.admin.token, 'idempotency-key': key, ...(failAfterCommit ? { 'x-test-fail-after-commit': 'yes' } : {}) },
  });

describe('Idempotency-Key after a commit', () => {
  it('a 500 after the commit is kept: the retry replays it and nothing is created twice', async () => {
    const events = await countEvents();
    const first = await post('after-commit-1', 'Tips after commit', true);
    expect(first.statusCode, first.body).toBe(500);
    expect(await countNamed('Tips after commit')).toBe(1);
    const retry = await post('after-commit-1', 'Tips after commit', false);
    expect(retry.statusCode, retry.body).toBe(500);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await countNamed('Tips after commit')).toBe(1);
    expect(await countEvents()).toBe(events + 1);
  });

  it('a request that failed before any commit still releases its key, so a corrected retry does the work', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/order-requests',
      payload: { ...body('Released'), lab_id: '0190a6f2-1111-7222-8333-444455556666' },
      headers: { 'access-token': a.admin.token, 'idempotency-key': 'released-1' },
    });
    expect(bad.statusCode).toBe(404);
    const corrected = await post('released-1', 'Released', false);
    expect(corrected.statusCode, corrected.body).toBe(201);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
    expect(await countNamed('Released')).toBe(1);
  });

  it('a committed claim whose response was never stored (the process died) is never taken over: 409 idempotency_key_completed', async () => {
    const first = await post('died-1', 'Tips of a dead process', false);
    expect(first.statusCode).toBe(201);
    // The state a process leaves when it dies between the commit and storing the answer, a while ago.
    const longAgo = new Date(Date.now() - ABANDONED_CLAIM_MS - 5000).toISOString();
    await database.handle.db
      .updateTable('idempotency_keys')
      .set({ status_code: 1, response_body: '', created_at: longAgo })
      .where('key', '=', 'died-1')
      .execute();
    const retry = await post('died-1', 'Tips of a dead process', false);
    expect(retry.statusCode, retry.body).toBe(409);
    expect(retry.json()).toMatchObject({ code: 'idempotency_key_completed' });
    expect(await countNamed('Tips of a dead process')).toBe(1);
  });

  it('a claim that never committed and was abandoned is taken over by the retry, which does the work once', async () => {
    const longAgo = new Date(Date.now() - ABANDONED_CLAIM_MS - 5000).toISOString();
    const tokenId = (await database.handle.db.selectFrom('idempotency_keys').select('token_id').executeTakeFirstOrThrow()).token_id;
    await database.handle.db
      .insertInto('idempotency_keys')
      .values({
        token_id: tokenId,
        key: 'abandoned-1',
        method: 'POST',
        path: '/order-requests',
        body_hash: 'x',
        status_code: 0,
        response_body: '',
        created_at: longAgo,
      })
      .execute();
    const retry = await post('abandoned-1', 'Tips of an abandoned claim', false);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(await countNamed('Tips of an abandoned claim')).toBe(1);
  });
});
