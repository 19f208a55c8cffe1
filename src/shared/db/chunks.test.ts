import { describe, expect, it } from 'vitest';
import { flatMapChunks, forEachChunk } from './chunks.js';

describe('chunks', () => {
  it('visits every item once, in order, in slices of the given size', async () => {
    const seen: number[][] = [];
    await forEachChunk([1, 2, 3, 4, 5], async (c) => seen.push(c), 2);
    expect(seen).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('runs nothing for no items, and collects the results of every slice', async () => {
    let calls = 0;
    await forEachChunk([], async () => {
      calls++;
    });
    expect(calls).toBe(0);
    expect(await flatMapChunks([1, 2, 3], async (c) => c.map((x) => x * 10), 2)).toEqual([10, 20, 30]);
  });

  it('waits for each slice before the next (statements of a transaction run in order)', async () => {
    const log: string[] = [];
    await forEachChunk(
      [1, 2, 3],
      async (c) => {
        log.push(`start ${c[0]}`);
        await new Promise((r) => setTimeout(r, 5));
        log.push(`end ${c[0]}`);
      },
      1,
    );
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });
});
