// `npm run client:generate` (after `npm run build`): starts the built server in-process on an empty in-memory
// database, takes GET /openapi.json, writes it to client/openapi.json (not committed) and regenerates the
// committed client/src/generated/schema.ts from it. client/test/generated.test.ts fails while that file is stale.
import { writeFileSync } from 'node:fs';
import { buildApp } from '../dist/server/app.js';
import { loadConfig } from '../dist/shared/config.js';
import { openDatabase } from '../dist/shared/db/database.js';
import { clientTypes, GENERATED_TYPES } from './client-types.mjs';

// EVENT_VENDOR decides the event types the document publishes; the client's types are made for the default.
const config = loadConfig({
  APP_URL: 'http://localhost:8080',
  EVENT_VENDOR: 'labstock',
  DATABASE_URL: 'sqlite::memory:',
  LOG_LEVEL: 'silent',
});
const handle = openDatabase(config.database);
const app = await buildApp({ config, db: handle.db });
try {
  await app.ready();
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
  const document = res.json();
  writeFileSync('client/openapi.json', `${JSON.stringify(document, null, 2)}\n`);
  const types = await clientTypes(document);
  writeFileSync(GENERATED_TYPES, types);
  console.log(`client/openapi.json: ${res.body.length} bytes; ${GENERATED_TYPES}: ${types.length} bytes`);
} finally {
  await app.close();
  await handle.close();
}
