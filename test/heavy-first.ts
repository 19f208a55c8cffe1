import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// vitest.config.ts's sequencer. Without a results cache (a fresh clone: CI) vitest starts larger files first, and a
// long file that happened to be small started last: the CSV round trip on SQLite and the two-worker delivery test on
// PostgreSQL each kept one worker busy alone for ~19 s at the end of their stage. The files that take 10 to 35 s on
// the 2-core CI machine start first, longest first (their durations in .ci/run's output); the rest keep vitest's order.
const HEAVY = [
  'test/lint/generators.test.ts',
  'client/test/package.test.ts',
  'test/cli/packed-install.test.ts',
  'test/cli/backup-postgres.test.ts',
  'test/upgrade/releases.test.ts',
  'test/api/labs/migrate.happy.test.ts',
  'test/cli/lab-migrate.test.ts',
  'test/browser/every-page.test.ts',
  'test/property/random-requests.test.ts',
  'client/test/generated.test.ts',
  'test/delivery/fairness.test.ts',
  'test/delivery/multi-worker.test.ts',
  'test/perf/csv-round-trip.test.ts',
  'test/api/inventory-csv/import-load.happy.test.ts',
  'test/events/order-request-history-bound.test.ts',
  'test/resilience/terminate-cli.test.ts',
  'test/cli/shop.test.ts',
  'test/browser/webhooks.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/inventory.test.ts',
  'test/property/every-operation.test.ts',
  'test/browser/find-an-item.test.ts',
  'test/browser/content-security-policy.test.ts',
  'test/api/inventory-csv/import-memory.happy.test.ts',
];

export class HeavyFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification) => {
      const i = HEAVY.indexOf(relative(root, spec.moduleId).split('\\').join('/'));
      return i < 0 ? HEAVY.length : i;
    };
    return sorted
      .map((spec, order) => ({ spec, order, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map((x) => x.spec);
  }
}
