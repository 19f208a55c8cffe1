import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createHook, deliverySuite } from './_setup.js';

// WEBHOOK_TRACE (src/delivery/trace.ts): one line per delivery with its steps, in the order they happen, from the
// claim to the record, the send thread's three among them; docs/performance.md ("Delivery under writes") reads
// them. A step missing or out of order would make that table say something false.

const { setup, changeInstance } = deliverySuite({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32' });
const ORDER = ['claimStart', 'claimEnd', 'loaded', 'posted', 'threadReceived', 'requested', 'answered', 'back', 'recorded'] as const;

describe('the delivery trace', () => {
  it('writes each delivery once, with every step from the claim to the record in order', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'labstock-trace-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'trace.jsonl');
    const {
      h,
      rx: [receiver],
    } = await setup();
    await createHook(h, { url: receiver!.url, event_types: ['com.labstock.inventory-item.updated'] });
    const worker = await h.startWorker({ WEBHOOK_TRACE: file });
    for (let i = 0; i < 3; i += 1) await changeInstance(h);
    await receiver!.waitFor(3);
    await worker.idle();
    await worker.stop(); // closes the trace: what it held is written

    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, number | string>);
    const deliveries = lines.filter((l) => l.delivery !== undefined);
    expect(deliveries.map((d) => d.event).sort()).toEqual(receiver!.posts.map((p) => String(p.headers['webhook-id'])).sort());
    for (const d of deliveries) {
      const at = ORDER.map((step) => d[step] as number);
      expect(
        at.every((t) => typeof t === 'number' && t > 0),
        JSON.stringify(d),
      ).toBe(true);
      for (let i = 1; i < at.length; i += 1) expect(at[i]!, `${ORDER[i]} after ${ORDER[i - 1]}`).toBeGreaterThanOrEqual(at[i - 1]!);
      // The commit is the event's time (whole milliseconds), before the claim that found it.
      expect(d.committed as number).toBeLessThanOrEqual((d.claimStart as number) + 1);
      expect(d.claimBatch as number).toBeGreaterThanOrEqual(1);
      expect(d.recordBatch as number).toBeGreaterThanOrEqual(1);
    }
  });
});
