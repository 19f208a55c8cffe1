import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/shared/config.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { type OrgFixture, seedOrganization } from '../helpers/fixtures.js';
import { TEST_ENV } from '../helpers/harness.js';

// Deprecated operations (docs/product.md §13, src/server/deprecation.ts): a route's `config.deprecation` makes every
// answer carry Deprecation (RFC 9745), Sunset (RFC 8594) once a date is set, and a Link to the changelog, which
// GET /changelog serves and the /docs reference links to. The real deprecated operation (PUT /inventory-items/{id})
// has no sunset date, so a test-only route added before the app is ready shows Sunset.

let app: FastifyInstance;
let database: TestDatabase;
let org: OrgFixture;
beforeAll(async () => {
  database = await createTestDatabase();
  const config = loadConfig({ ...TEST_ENV, DATABASE_URL: database.url });
  app = await buildApp({ config, db: database.handle.db });
  app.get('/test-only/sunset', { config: { public: true, deprecation: { since: '2026-06-17', sunset: '2027-01-31' } } }, async () => ({
    ok: true,
  }));
  app.get('/test-only/failing', { config: { public: true, deprecation: { since: '2026-06-17' } } }, async () => {
    throw new Error('boom');
  });
  await app.ready();
  org = await seedOrganization({ db: database.handle.db, config }, 'A');
});
afterAll(async () => {
  await app?.close();
  await database?.drop();
});

describe('deprecated operations', () => {
  it('send Deprecation, Sunset once a date is set, and a Link to the changelog', async () => {
    const res = await app.inject({ method: 'GET', url: '/test-only/sunset' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.deprecation).toBe(`@${Date.UTC(2026, 5, 17) / 1000}`);
    expect(res.headers.sunset).toBe('Sun, 31 Jan 2027 00:00:00 GMT');
    expect(res.headers.link).toBe('<http://labstock.test/changelog>; rel="deprecation"; type="text/markdown"');
  });

  it('send them on errors too', async () => {
    const res = await app.inject({ method: 'GET', url: '/test-only/failing' });
    expect(res.statusCode).toBe(500);
    expect(res.headers.deprecation).toBe(`@${Date.UTC(2026, 5, 17) / 1000}`);
  });

  it('PUT /inventory-items/{id}: Deprecation and Link without Sunset (no date is set), and deprecated in the document', async () => {
    const res = await app.inject({
      method: 'PUT',
      url: `/inventory-items/${org.legacyLab.itemId}`,
      headers: { 'access-token': org.admin.token },
      payload: { quantity: '2' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.deprecation).toBe(`@${Date.UTC(2026, 5, 17) / 1000}`);
    expect(res.headers.link).toContain('rel="deprecation"');
    expect(res.headers.sunset).toBeUndefined();
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/inventory-items/{id}'].put.deprecated).toBe(true);
    expect(doc.paths['/inventory-items/{id}'].get.deprecated).toBeUndefined();
  });

  it('other operations send none of them', async () => {
    const res = await app.inject({
      method: 'GET',
      url: `/inventory-items/${org.legacyLab.itemId}`,
      headers: { 'access-token': org.admin.token },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers.deprecation).toBeUndefined();
    expect(res.headers.sunset).toBeUndefined();
  });

  it('the changelog is served at /changelog and linked from the /docs reference (the document it shows)', async () => {
    const changelog = await app.inject({ method: 'GET', url: '/changelog' });
    expect(changelog.statusCode).toBe(200);
    expect(changelog.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(changelog.body.startsWith('# Changelog')).toBe(true);
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.info.description).toContain('[changelog](http://labstock.test/changelog)');
    const docs = await app.inject({ method: 'GET', url: '/docs/json' });
    expect(docs.json().info.description).toContain('/changelog');
  });
});
