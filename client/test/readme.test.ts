import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// client/README.md's TypeScript examples are the files in client/examples/ (each from its `// ---- README ----`
// marker on, after the declarations that stand for the reader's own values); client/test/generated.test.ts
// compiles those files against the built package.

const client = path.resolve(import.meta.dirname, '..');
const MARKER = '// ---- README ----\n';

const examples = readdirSync(path.join(client, 'examples'))
  .filter((f) => f.endsWith('.ts'))
  .map((file) => {
    const text = readFileSync(path.join(client, 'examples', file), 'utf8');
    expect(text, `${file} has the README marker`).toContain(MARKER);
    return { file, snippet: text.slice(text.indexOf(MARKER) + MARKER.length).trim() };
  });
const blocks = [...readFileSync(path.join(client, 'README.md'), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!.trim());

describe('client/README.md', () => {
  it('shows each example of client/examples/ exactly once, and no TypeScript that is not one', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    for (const block of blocks) {
      expect(
        examples.map((e) => e.snippet),
        `a README block that is no file of client/examples/:\n${block}`,
      ).toContain(block);
    }
    for (const { file, snippet } of examples)
      expect(
        blocks.filter((b) => b === snippet),
        file,
      ).toHaveLength(1);
  });
});
