import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { HeavyFirst } from './test/heavy-first.js';

// Which databases this run covers. By default the one DATABASE_URL names (SQLite without it). `.ci/run` sets
// LABSTOCK_ALSO_POSTGRES to a PostgreSQL URL so that `npm test` runs the suite on both databases in one vitest run:
// the PostgreSQL projects' files fill the cores that the SQLite files leave idle while they wait on child processes,
// timers and receivers (docs/decisions/0021-both-databases-at-once.md). A project's `env` reaches its workers'
// process.env, and a worker only ever runs one project's files, so each file sees one database.
const alsoPostgres = process.env.LABSTOCK_ALSO_POSTGRES;
const mainOnPostgres = process.env.DATABASE_URL?.startsWith('postgres') === true;
// The projects whose tests open databases prepare them once per run (test/global-setup.ts: the migrated SQLite
// file each test file's database copies, or PostgreSQL's compacted catalogs); the unit project touches none.
const globalSetup = ['test/global-setup.ts'];

/** The integration, client and browser projects on one database (`pg` names the PostgreSQL copy, if any). */
function databaseProjects(pgUrl: string | undefined, suffix: string): TestProjectInlineConfiguration[] {
  const onPostgres = pgUrl !== undefined;
  const env: Record<string, string> = pgUrl === undefined ? {} : { DATABASE_URL: pgUrl };
  // On PostgreSQL one browser journey runs unless asked for all (docs/decisions/0018-journeys-once.md).
  const allJourneys = !onPostgres || process.env.LABSTOCK_ALL_JOURNEYS === '1';
  return [
    {
      extends: true,
      test: {
        name: `integration${suffix}`,
        env,
        globalSetup,
        include: ['test/**/*.test.ts'],
        // On PostgreSQL the files that touch no database are not run again: the lint tests ran on SQLite.
        exclude: ['test/browser/**', ...(onPostgres ? ['test/lint/**'] : [])],
      },
    },
    // The typed client in client/ against the real server, its generated types and its build (the compile checks
    // touch no database: SQLite only).
    {
      extends: true,
      test: {
        name: `client${suffix}`,
        env,
        globalSetup,
        include: ['client/test/**/*.test.ts'],
        exclude: onPostgres ? ['client/test/generated.test.ts'] : [],
      },
    },
    // The web application's journeys in Chromium against the real server (test/helpers/browser.ts); they need
    // `npm run build` (the app in dist/web) and the chromium package. On PostgreSQL one journey runs, an order
    // request's whole life through the pages: the others test pages over an API whose every endpoint is tested on
    // both databases, and cost a quarter of that stage.
    {
      extends: true,
      test: {
        name: `browser${suffix}`,
        env,
        globalSetup,
        include: allJourneys ? ['test/browser/**/*.test.ts'] : ['test/browser/order-and-receive.test.ts'],
      },
    },
  ];
}

export default defineConfig({
  test: {
    // The CLI tests spawn a dozen `labstock` processes each (~1-2 s apiece while other files run beside them).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // More test files at once than cores: most of a file's time is spent waiting (child processes, receivers,
    // timers, PostgreSQL), not computing. On the 2-core CI machine 4 took the SQLite run from ~275 s to ~165 s,
    // but CLI tests then came close to their timeout; 3 leaves them room.
    // With both databases in one run (LABSTOCK_ALSO_POSTGRES) a fourth file at once: twice the files, whose waits
    // (PostgreSQL's round trips above all) leave more of the two cores idle.
    maxWorkers: alsoPostgres ? 4 : 3,
    // A worker keeps the modules it imported for the next file instead of importing the whole app again for each:
    // that import was most of the suite's CPU (the whole SQLite run: 338 s of CPU isolated, 133 s not; PostgreSQL:
    // 397 s and 211 s). Each file still gets its own database and app (test/helpers/harness.ts), and no test
    // changes process-wide state (environment, timers, globals) that the next file would see.
    isolate: false,
    // The longest files first, so none of them runs alone at the end of a stage (test/heavy-first.ts).
    sequence: { sequencer: HeavyFirst },
    projects: [
      // `npm run test:unit`: the pure rules beside the code, no database (the PostgreSQL migration test skips
      // without one).
      { extends: true, test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      ...databaseProjects(mainOnPostgres ? process.env.DATABASE_URL : undefined, ''),
      ...(alsoPostgres && !mainOnPostgres ? databaseProjects(alsoPostgres, '-pg') : []),
    ],
  },
});
