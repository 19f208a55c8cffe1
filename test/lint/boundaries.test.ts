import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

// The import-boundary rule (biome.json, docs/decisions/0005-layers.md) refuses an upward import: each case plants a
// file at a path of the tree in a scratch folder that holds the project's biome.json, so the tree is never touched.

const BIOME = path.resolve('node_modules/.bin/biome');

interface Linted {
  /** What `biome lint` of that file alone would exit with: 1 when it has an error, else 0. */
  code: number;
  /** Its diagnostics, one a line: category, then message. */
  output: string;
}

/** Every case of this file, [path, source], planted and linted together in beforeAll. */
const planted: [string, string][] = [];
const plant = <T extends [string, string, ...unknown[]]>(cases: T[]): T[] => {
  for (const [file, source] of cases) planted.push([file, source]);
  return cases;
};
const results = new Map<string, Linted>();
const key = (file: string, source: string) => `${file}\n${source}`;

/**
 * One biome run per round of cases instead of one per case (~0.16 s of CPU each): a round plants files at distinct
 * paths, the JSON reporter names each diagnostic's file. A file with no diagnostic passes, as it would alone.
 */
function lintAll(cases: [string, string][]): void {
  const rounds: [string, string][][] = [];
  for (const c of cases) {
    const round = rounds.find((r) => !r.some(([file]) => file === c[0]));
    if (round) round.push(c);
    else rounds.push([c]);
  }
  for (const round of rounds) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labstock-lint-'));
    try {
      fs.copyFileSync('biome.json', path.join(dir, 'biome.json'));
      fs.cpSync('lint', path.join(dir, 'lint'), { recursive: true });
      for (const [file, source] of round) {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), source);
      }
      const files = round.map(([file]) => file);
      const run = spawnSync(BIOME, ['lint', '--vcs-enabled=false', '--reporter=json', '--max-diagnostics=none', ...files], {
        cwd: dir,
        encoding: 'utf8',
      });
      const report = JSON.parse(run.stdout) as {
        summary: { diagnosticsNotPrinted: number };
        diagnostics: { severity: string; category: string; message: string; location: { path: string | null } }[];
      };
      expect(report.summary.diagnosticsNotPrinted, run.stderr).toBe(0);
      expect(
        report.diagnostics.filter((d) => !files.includes(d.location.path ?? '')),
        run.stderr,
      ).toEqual([]);
      for (const [file, source] of round) {
        const mine = report.diagnostics.filter((d) => d.location.path === file);
        results.set(key(file, source), {
          code: mine.some((d) => d.severity === 'error' || d.severity === 'fatal') ? 1 : 0,
          output: mine.map((d) => `${d.category} ${d.message}`).join('\n'),
        });
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

beforeAll(() => lintAll(planted));

function lint(filePath: string, source: string): Linted {
  const result = results.get(key(filePath, source));
  if (!result) throw new Error(`${filePath} was not planted: list its case with plant()`);
  return result;
}

describe('import boundaries', () => {
  it.each(
    plant([
      ['src/shared/planted.ts', "import { createUser } from '../accounts/service.js';\nexport const x = createUser;\n", 'ground floor'],
      ['src/shared/db/planted.ts', "import { buildApp } from '../../server/app.js';\nexport const x = buildApp;\n", 'ground floor'],
      ['src/shared/planted.ts', "import { emitEvent } from '../events/outbox.js';\nexport const x = emitEvent;\n", 'ground floor'],
      ['src/delivery/planted.ts', "import { checkout } from '../shop/service.js';\nexport const x = checkout;\n", 'below the domains'],
      ['src/events/planted.ts', "import { buildApp } from '../server/app.js';\nexport const x = buildApp;\n", 'below the domains'],
      [
        'src/inventory/planted.ts',
        "import { buildApp } from '../server/app.js';\nexport const x = buildApp;\n",
        'Domains import no server',
      ],
      ['src/shop/planted.ts', "import { serve } from '../cli/serve.js';\nexport const x = serve;\n", 'Domains import no server'],
      [
        'src/shared/db/migrations/planted.ts',
        "import { lockLab } from '../../../labs/repository.js';\nexport const x = lockLab;\n",
        'ground floor',
      ],
      ['src/delivery/planted.ts', "import { emitEvent } from '../events/outbox.js';\nexport const x = emitEvent;\n", 'below events/'],
      ['src/server/planted.ts', "import { main } from '../cli/main.js';\nexport const x = main;\n", 'server/ imports no cli/'],
      [
        'src/demo/planted.ts',
        "import { buildApp } from '../server/app.js';\nexport const x = buildApp;\n",
        'demo/ imports no cli/ or server/',
      ],
    ]),
  )('%s: an upward import fails the lint', (file, source, message) => {
    const { code, output } = lint(file, source);
    expect(code, output).not.toBe(0);
    expect(output).toContain('noRestrictedImports');
    expect(output).toContain(message);
  });

  it.each(
    plant([
      [
        'src/inventory/planted.ts',
        "import { AppError } from '../shared/errors.js';\nimport { emitEvent } from '../events/outbox.js';\nexport const x = [AppError, emitEvent];\n",
      ],
      ['src/server/planted.ts', "import { checkout } from '../shop/service.js';\nexport const x = checkout;\n"],
      ['src/delivery/planted.ts', "import { newId } from '../shared/ids.js';\nexport const x = newId;\n"],
    ]),
  )('%s: a downward import passes', (file, source) => {
    const { code, output } = lint(file, source);
    expect(code, output).toBe(0);
  });
});

// The order between domain folders (docs/decisions/0005-layers.md, 0006, 0008): a domain imports only the floors
// below its own, never a folder on its floor or above, however deep the importing or imported file sits.
describe('order between domains', () => {
  const labsBelow = "import { findOrganization } from '../accounts/repository.js';\n";
  const labsFile = 'src/labs/planted.ts';
  const labsUpward = `${labsBelow}import { createItem } from '../inventory/items.js';\nexport const x = [findOrganization, createItem];\n`;
  const labsWithout = `${labsBelow}export const x = [findOrganization];\n`;
  plant([
    [labsFile, labsUpward],
    [labsFile, labsWithout],
  ]);
  it('labs/ importing inventory/ fails the lint; the same file without that import passes', () => {
    const upward = lint(labsFile, labsUpward);
    expect(upward.code, upward.output).not.toBe(0);
    expect(upward.output).toContain('noRestrictedImports');
    expect(upward.output).toContain('labs/ may import accounts/');
    const without = lint(labsFile, labsWithout);
    expect(without.code, without.output).toBe(0);
  });

  it.each(
    plant([
      [
        'src/locations/planted.ts',
        "import { inventoryAtLocations } from '../inventory/stored-at.js';\nexport const x = inventoryAtLocations;\n",
      ],
      ['src/order-requests/planted.ts', "import { checkout } from '../shop/service.js';\nexport const x = checkout;\n"],
      ['src/catalogue/planted.ts', "import { createOrder } from '../order-requests/service.js';\nexport const x = createOrder;\n"],
      ['src/types/planted.ts', "import { createLocation } from '../locations/service.js';\nexport const x = createLocation;\n"],
      ['src/lab-migration/planted.ts', "import { createOrder } from '../order-requests/service.js';\nexport const x = createOrder;\n"],
      ['src/accounts/planted.ts', "import { lockLab } from '../labs/repository.js';\nexport const x = lockLab;\n"],
      [
        'src/labs/planted.ts',
        "import { storeItemIndexes } from '../inventory/search/repository.js';\nexport const x = storeItemIndexes;\n",
      ],
      [
        'src/inventory/search/planted.ts',
        "import { createOrder } from '../../order-requests/service.js';\nexport const x = createOrder;\n",
      ],
    ]),
  )('%s: an import sideways or upward between domains fails the lint', (file, source) => {
    const { code, output } = lint(file, source);
    expect(code, output).not.toBe(0);
    expect(output).toContain('noRestrictedImports');
    expect(output).toContain('A domain imports only the domains below it');
  });

  it.each(
    plant([
      ['src/shop/planted.ts', "import { transitionIn } from '../order-requests/service.js';\nexport const x = transitionIn;\n"],
      ['src/order-requests/planted.ts', "import { findProduct } from '../catalogue/repository.js';\nexport const x = findProduct;\n"],
      ['src/inventory/planted.ts', "import { findLocation } from '../locations/repository.js';\nexport const x = findLocation;\n"],
      ['src/inventory/search/planted.ts', "import { visibleLabIds } from '../../labs/repository.js';\nexport const x = visibleLabIds;\n"],
      ['src/events/planted.ts', "import { deliverySignal } from '../delivery/signal.js';\nexport const x = deliverySignal;\n"],
    ]),
  )('%s: an import down the floors passes', (file, source) => {
    const { code, output } = lint(file, source);
    expect(code, output).toBe(0);
  });
});

describe('queries live in repositories', () => {
  const query = "export const f = (db: any) => db.selectFrom('labs').selectAll().execute();\n";
  const raw = "import { sql } from 'kysely';\nexport const f = (db: any) => sql`select 1`.execute(db);\n";
  it.each(
    plant([
      ['src/inventory/service.ts', query],
      ['src/delivery/worker.ts', query],
      ['src/server/app.ts', raw],
    ]),
  )('%s: a query outside a repository fails the lint', (file, source) => {
    const { code, output } = lint(file, source);
    expect(code, output).not.toBe(0);
    expect(output).toContain('repository.ts of the folder that owns the table');
  });

  it.each(
    plant([
      ['src/inventory/repository.ts', query],
      ['src/delivery/webhook-repository.ts', raw],
      ['src/shared/db/database.ts', query],
    ]),
  )('%s: a query in a repository (or src/shared/db) passes', (file, source) => {
    const { output } = lint(file, source);
    expect(output).not.toContain('repository.ts of the folder that owns the table');
  });
});
