import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/shared/config.js';
import { openDatabase } from '../../src/shared/db/database.js';
import { TEST_ENV } from '../helpers/harness.js';

// GET /openapi.json of the app as a server builds it, written to a fresh temporary folder for the tools that read
// files (test/lint/openapi.test.ts, generators.test.ts). The document needs no data: an empty in-memory database.

export interface ServedDocument {
  document: Record<string, unknown>;
  dir: string;
  file: string;
}

export async function servedDocument(): Promise<ServedDocument> {
  const config = loadConfig({ ...TEST_ENV, DATABASE_URL: 'sqlite::memory:' });
  const handle = openDatabase(config.database);
  const app = await buildApp({ config, db: handle.db });
  try {
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}`);
    const dir = mkdtempSync(path.join(tmpdir(), 'labstock-openapi-'));
    const file = path.join(dir, 'openapi.json');
    writeFileSync(file, res.body);
    return { document: res.json(), dir, file };
  } finally {
    await app.close();
    await handle.close();
  }
}
