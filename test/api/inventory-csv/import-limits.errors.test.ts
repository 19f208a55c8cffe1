// Issue 22, item 5: imports (dry runs included) are limited to one at a time per lab (409 import_in_progress)
// and IMPORT_CONCURRENCY per process (503 service_unavailable), both with Retry-After; a slot is free again when
// its import has answered. A second request is sent again and again while a large dry run is still running, so
// the test does not depend on how long that run takes.
import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { importCsv, largeCsv } from './_helpers.js';

const h = useHarness({ IMPORT_CONCURRENCY: '1' });

const small = 'name,quantity\r\nLimit probe,1\r\n';

/**
 * Starts a large dry run in the migrated lab, and sends `probe` until one is refused or the large one answers.
 * Which of two overlapping requests takes the slot first is not fixed (the large body takes longer to arrive), so
 * the refusals are every answer that is not 200, the large one's included; the probes answered 200 are counted.
 */
async function whileRunning(probe: () => ReturnType<typeof importCsv>) {
  let done = false;
  const large = importCsv(h, h.a.member.token, h.a.migratedLab.id, largeCsv(30_000), true).then((res) => {
    done = true;
    return res;
  });
  const refusals = [];
  let accepted = 0;
  while (!done && refusals.length === 0) {
    const res = await probe();
    if (res.statusCode === 200) accepted++;
    else refusals.push(res);
    await new Promise((r) => setTimeout(r, 20));
  }
  const first = await large;
  if (first.statusCode !== 200) refusals.push(first);
  return { refusals, accepted };
}

describe('import limits (issue 22, item 5)', () => {
  it('a second import into a lab while one runs there is 409 import_in_progress with Retry-After; afterwards it goes', async () => {
    const { refusals } = await whileRunning(() => importCsv(h, h.a.member.token, h.a.migratedLab.id, small, true));
    expect(refusals.length, 'no import was refused while another ran in the lab').toBe(1);
    const body = expectError(refusals[0]!, 409, 'import_in_progress');
    expect(body.message).toMatch(/running/);
    expect(Number(refusals[0]!.headers['retry-after'])).toBeGreaterThan(0);
    const after = await importCsv(h, h.a.member.token, h.a.migratedLab.id, small, true);
    expect(after.statusCode, after.body).toBe(200);
  });

  it('beyond IMPORT_CONCURRENCY in the process, an import into another lab is 503 with Retry-After; nothing is written', async () => {
    const probes = () =>
      h.deps.db
        .selectFrom('inventory_items')
        .select('id')
        .where('lab_id', '=', h.a.legacyLab.id)
        .where('name', '=', 'Limit probe')
        .execute();
    const { refusals, accepted } = await whileRunning(() => importCsv(h, h.a.admin.token, h.a.legacyLab.id, small));
    expect(refusals.length, 'no import was refused while another ran in the process').toBe(1);
    expectError(refusals[0]!, 503, 'service_unavailable');
    expect(Number(refusals[0]!.headers['retry-after'])).toBeGreaterThan(0);
    // Each probe answered 200 wrote its one item; a refused one wrote nothing.
    expect((await probes()).length).toBe(accepted);
    const res = await importCsv(h, h.a.admin.token, h.a.legacyLab.id, small);
    expect(res.statusCode, res.body).toBe(200);
    expect((await probes()).length).toBe(accepted + 1);
  });

  it('the OpenAPI document declares both refusals, so generated clients type them', async () => {
    const doc = (await h.call(null, { method: 'GET', url: '/openapi.json' })).json();
    const declared = doc.paths['/labs/{id}/inventory/import'].post.responses;
    for (const status of ['409', '503'])
      expect(declared[status]?.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
  });
});
