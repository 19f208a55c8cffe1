import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../../src/server/app.js';
import { type Harness, startHarness } from '../helpers/harness.js';

// docs/product.md §9: structured JSON logs with request ids. And no token, valid or not, ever reaches a log line.
let h: Harness;
const lines: Record<string, unknown>[] = [];
let app: Awaited<ReturnType<typeof buildApp>>;
beforeAll(async () => {
  h = await startHarness();
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  app = await buildApp({ config: { ...h.config, logLevel: 'info' }, db: h.deps.db, logger: loggerOptions({ logLevel: 'info' }, stream) });
});
afterAll(async () => {
  await app?.close();
  await h?.close();
});

describe('logs', () => {
  it('are JSON lines carrying the request id that the response names', async () => {
    const res = await app.inject({ method: 'GET', url: '/labs', headers: { 'access-token': h.a.admin.token } });
    expect(res.statusCode).toBe(200);
    const mine = lines.filter((l) => l.reqId === res.headers['x-request-id']);
    expect(mine.length).toBeGreaterThanOrEqual(2); // incoming request and completed response
    expect(mine.some((l) => (l.res as { statusCode?: number } | undefined)?.statusCode === 200)).toBe(true);
  });

  it('never contain a token, whether it is valid, unknown, or sent as a bearer', async () => {
    const unknown = `lst_${'x'.repeat(43)}`;
    await app.inject({ method: 'GET', url: '/labs', headers: { 'access-token': h.a.admin.token } });
    await app.inject({ method: 'GET', url: '/labs', headers: { 'access-token': unknown } });
    await app.inject({ method: 'GET', url: '/user', headers: { authorization: `Bearer ${h.a.member.token}` } });
    await app.inject({
      method: 'POST',
      url: '/order-requests',
      headers: { 'access-token': h.a.admin.token, 'content-type': 'application/json' },
      payload: '{"broken',
    });
    const text = JSON.stringify(lines);
    expect(lines.length).toBeGreaterThan(6);
    for (const secret of [h.a.admin.token, unknown, h.a.member.token]) expect(text).not.toContain(secret);
  });
});
