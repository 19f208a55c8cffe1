import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok","database":"ok"} without a token', async () => {
    const res = await h.call(null, { method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('is public: an unknown or malformed token does not make it fail', async () => {
    const unknown = await h.call('lst_not-a-real-token', { method: 'GET', url: '/healthz' });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ status: 'ok', database: 'ok' });
    const bearer = await h.call(null, { method: 'GET', url: '/healthz', headers: { authorization: 'Bearer nonsense' } });
    expect(bearer.statusCode).toBe(200);
    expect(bearer.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('also answers with a valid token, with the same body', async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('is not confused by a query string', async () => {
    const res = await h.call(null, { method: 'GET', url: '/healthz?verbose=1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  // Runs last: it shuts the file's database down (the harness's close tolerates a second close).
  it('answers 503 with "database":"unreachable" once the database is gone, without leaking internals', async () => {
    await h.database.handle.close();
    const res = await h.call(null, { method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable', database: 'unreachable' });
    expect(res.body).not.toMatch(/stack|Error|destroyed|sqlite|postgres|select/i);
  });
});
