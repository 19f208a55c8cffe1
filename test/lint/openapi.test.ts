import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedDocument, servedDocument } from './served-document.js';

// GET /openapi.json meets Redocly's recommended rules (redocly.yaml) with no error and no warning: among them that
// every example is valid against its schema, every operation has a 2xx and a 4xx answer, and no component is unused.

const root = path.resolve(import.meta.dirname, '../..');
const redocly = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
const run = promisify(execFile);

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer: string; source: { ref: string } }[];
}

/** The problems Redocly finds in `files` (one run: most of its time is starting), as its JSON report lists them. */
async function lint(...files: string[]): Promise<Problem[]> {
  const args = [redocly, 'lint', ...files, '--config', path.join(root, 'redocly.yaml'), '--format', 'json'];
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  // It exits 1 when it finds errors; the report is on stdout either way.
  const { stdout } = await run(process.execPath, args, { cwd: root, env, maxBuffer: 64 * 1024 * 1024 }).catch((err) => err);
  // One JSON report per file, one after the other.
  const text = String(stdout);
  const reports = text
    .slice(text.indexOf('{'))
    .split(/(?<=\})\s*(?=\{\s*"totals")/)
    .map((part) => JSON.parse(part) as { problems: Problem[] });
  expect(reports).toHaveLength(files.length);
  return reports.flatMap((r) => r.problems);
}

const summary = (problems: Problem[]) => problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);

let served: ServedDocument;
let problems: { served: Problem[]; spoiled: Problem[] };
beforeAll(async () => {
  served = await servedDocument();
  // Beside it a spoiled copy, to show the rules the examples and the declared errors rely on are really on.
  const doc = structuredClone(served.document) as any;
  const op = doc.paths['/inventory-items/{id}'].get;
  op.responses['200'].content['application/json'].example.quantity = 7;
  op.responses = { 200: op.responses['200'] };
  doc.webhooks['type.created'].post.requestBody.content['application/json'].example.data.type.name = 5;
  const spoiled = path.join(served.dir, 'spoiled.json');
  writeFileSync(spoiled, JSON.stringify(doc));
  const all = await lint(served.file, spoiled);
  const from = (file: string) => all.filter((p) => path.resolve(root, p.location[0]?.source.ref ?? '') === file);
  problems = { served: from(served.file), spoiled: from(spoiled) };
});
afterAll(() => rmSync(served.dir, { recursive: true, force: true }));

describe("GET /openapi.json against Redocly's recommended rules", () => {
  it('has no error and no warning', () => {
    expect(summary(problems.served)).toEqual([]);
  });

  it("would be told an operation's or an event's example that does not match its schema, and an operation without a 4xx answer", () => {
    const at = (rule: string) => problems.spoiled.filter((p) => p.ruleId === rule).map((p) => p.location[0]?.pointer);
    expect(at('no-invalid-media-type-examples')).toEqual([
      expect.stringMatching(/^#\/paths\/~1inventory-items~1\{id\}\/get\/responses\/200/),
      expect.stringMatching(/^#\/webhooks\/type\.created\/post\/requestBody/),
    ]);
    expect(at('operation-4xx-response')).toEqual([expect.stringMatching(/^#\/paths\/~1inventory-items~1\{id\}\/get/)]);
  });
});
