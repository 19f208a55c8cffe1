// Issue 22, item 5: a large CSV import must not freeze the server. While a 100,000-row import runs, /healthz and
// GET /labs keep answering over real HTTP (each answers before the import does, and no wait between two answers
// is more than a small part of the import's time: relative bounds, never milliseconds), and everything is still
// imported at once.
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { largeCsv } from './_helpers.js';

let base: string;
const h = useHarness({}, async (h) => {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});

const ROWS = 100_000;

describe('a large import keeps the server answering (issue 22, item 5)', () => {
  it('/healthz and GET /labs answer while a 100,000-row import runs; the import is whole', async () => {
    const token = h.a.member.token;
    const lab = h.a.migratedLab.id;
    const csv = largeCsv(ROWS);
    const t0 = performance.now();
    let doneAt = 0;
    const importing = fetch(`${base}/labs/${lab}/inventory/import`, {
      method: 'POST',
      headers: { 'access-token': token, 'content-type': 'text/csv' },
      body: csv,
    }).then(async (res) => {
      const body = await res.text();
      doneAt = performance.now();
      return { status: res.status, body };
    });
    const answers: number[] = [];
    const statuses: string[] = [];
    // Each probe on a connection of its own (reset: the client asks the server to close it after answering). On a
    // reused keep-alive connection an event-loop pause longer than HTTP_KEEP_ALIVE_TIMEOUT (a loaded CI machine,
    // the test and the server in one process) lets the server's idle timer close the socket under the next request,
    // which a client sees as ECONNRESET: the keep-alive race every HTTP client has, not the server failing to answer.
    const probe = async (path: string, headers: Record<string, string> = {}) => {
      const res = await request(`${base}${path}`, { headers, reset: true });
      await res.body.arrayBuffer();
      return res.statusCode;
    };
    while (doneAt === 0) {
      const [health, labs] = await Promise.all([probe('/healthz'), probe('/labs', { 'access-token': token })]);
      statuses.push(`healthz ${health}`, `labs ${labs}`);
      answers.push(performance.now());
    }
    const res = await importing;
    expect(res.status, res.body).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ rows: ROWS, items: ROWS / 2, instances: ROWS, error_count: 0 });
    const count = await h.deps.db
      .selectFrom('inventory_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('lab_id', '=', lab)
      .where('name', 'like', 'Load reagent %')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(ROWS / 2);

    expect(new Set(statuses)).toEqual(new Set(['healthz 200', 'labs 200']));
    const duration = doneAt - t0;
    const during = answers.filter((t) => t < doneAt);
    // Answers while the import ran: several of them, and the longest wait for one a small part of the import.
    expect(during.length).toBeGreaterThanOrEqual(5);
    const waits = during.map((t, i) => t - (i === 0 ? t0 : during[i - 1]!));
    waits.push(doneAt - during[during.length - 1]!);
    expect(Math.max(...waits)).toBeLessThan(duration / 4);
  }, 240_000);
});
