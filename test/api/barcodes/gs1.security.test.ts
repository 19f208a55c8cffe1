// Reading a barcode needs a signed-in person or a token like every other call; it reads no one's data, so every
// member of every organization gets the same answer, and a refused token learns nothing of the scan.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { readGs1 } from './_gs1.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const SCAN = '(01)09506000134352(17)271231(10)SECRETLOT';

describe('GS1 barcodes (security)', () => {
  it('401 without a token or with an unknown one, and the answer does not echo the scan', async () => {
    for (const token of [null, 'lst_unknown']) {
      const res = await readGs1(h, token, SCAN);
      expectError(res, 401, 'unauthorized');
      expect(res.body).not.toContain('SECRETLOT');
    }
  });

  it('the same reading for a member, an admin of another organization and a person in no lab', async () => {
    const answers = [];
    for (const token of [h.a.member.token, h.b.admin.token, h.a.outsider.token]) {
      const res = await readGs1(h, token, SCAN);
      expect(res.statusCode, res.body).toBe(200);
      answers.push(res.json());
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[0].lot_number).toBe('SECRETLOT');
  });
});
