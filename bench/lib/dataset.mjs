// The benchmark's dataset: one organization with `labs` labs (every other one migrated to instances), an admin
// and one member per lab, their tokens, types, a location tree per migrated lab, `items` inventory items spread
// evenly over the labs (1 to 5 instances each in migrated labs), and order requests.
//
// The schema comes from the project's own migrations; organization, users, memberships, labs and tokens are
// made by the real services (so authentication works exactly as in production); the bulk rows (types,
// locations, items, instances, order requests) are written straight into the tables in large batches.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { v7 as uuid } from 'uuid';
import { createOrganization, createToken, createUser } from '../../dist/accounts/service.js';
import { searchIdBase } from '../../dist/inventory/search/rules.js';
import { rebuildDocuments } from '../../dist/inventory/stored/rebuild.js';
import { addMember, createLab } from '../../dist/labs/service.js';
import { systemActor } from '../../dist/shared/actor.js';
import { loadConfig, parseDatabaseUrl } from '../../dist/shared/config.js';
import { migrateToLatest, openDatabase } from '../../dist/shared/db/database.js';
import { itemSearchDocument, nameSortKey, soonestExpiry } from '../../dist/shared/search-text.js';
import { typeNameKey } from '../../dist/types/repository.js';

/**
 * A fresh, empty database for the run: a SQLite file in a temporary folder, or a new PostgreSQL database on the
 * server DATABASE_URL names (created here, dropped by drop()).
 */
export async function freshDatabase(databaseUrl) {
  const target = parseDatabaseUrl(databaseUrl || undefined);
  if (target.kind === 'postgres') {
    const name = `labstock_bench_${Date.now().toString(36)}_${process.pid}`;
    const admin = new pg.Client({ connectionString: target.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const version = (await admin.query('show server_version')).rows[0].server_version;
    await admin.end();
    const url = new URL(target.url);
    url.pathname = `/${name}`;
    return {
      kind: 'postgres',
      url: url.toString(),
      version: `PostgreSQL ${version}`,
      label: `PostgreSQL ${version} (fresh database ${name} on ${url.host})`,
      async drop() {
        const c = new pg.Client({ connectionString: target.url });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labstock-bench-'));
  const file = path.join(dir, 'bench.sqlite');
  const probe = new Database(':memory:');
  const version = probe.prepare('select sqlite_version() as v').get().v;
  probe.close();
  return {
    kind: 'sqlite',
    url: file,
    version: `SQLite ${version}`,
    label: `SQLite ${version} (WAL, ${file})`,
    async drop() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const INT_COLUMNS = new Set(['version', 'is_urgent', 'uses_instances', 'is_operator', 'below_minimum']);

/** Multi-row inserts without the query builder: prepared statements on SQLite, unnest() arrays on PostgreSQL. */
export async function bulkWriter(db) {
  return openBulkWriter(db);
}

async function openBulkWriter(db) {
  if (db.kind === 'sqlite') {
    const sqlite = new Database(db.url);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = OFF');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    const statements = new Map();
    return {
      async insert(table, columns, rows) {
        if (rows.length === 0) return;
        const key = `${table}(${columns})`;
        let st = statements.get(key);
        if (!st) {
          st = sqlite.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
          statements.set(key, st);
        }
        sqlite.transaction((rs) => {
          for (const r of rs) st.run(r);
        })(rows);
      },
      async finish() {
        sqlite.pragma('wal_checkpoint(TRUNCATE)');
        sqlite.close();
      },
    };
  }
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  return {
    async insert(table, columns, rows) {
      const CHUNK = 10_000;
      for (let i = 0; i < rows.length; i += CHUNK) {
        const chunk = rows.slice(i, i + CHUNK);
        const arrays = columns.map((_, c) => chunk.map((r) => r[c]));
        const casts = columns.map((col, c) => `$${c + 1}::${INT_COLUMNS.has(col) ? 'int' : 'text'}[]`);
        await pool.query(`INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM unnest(${casts.join(', ')})`, arrays);
      }
    },
    async finish() {
      // VACUUM as autovacuum would within a minute of a bulk load (PostgreSQL 13+ vacuums insert-only tables too):
      // without it index-only scans read the table anyway (no visibility map yet), and counts cost 3-4x.
      await pool.query('VACUUM (ANALYZE)');
      await pool.end();
    },
  };
}

// Vocabulary for rows that look like a lab's inventory.
const SUBSTANCES = [
  'Ethanol',
  'Methanol',
  'Acetone',
  'Tris base',
  'Sodium chloride',
  'Glycine',
  'SDS',
  'Agarose',
  'DMSO',
  'EDTA',
  'HEPES',
  'Glucose',
  'Ampicillin',
  'Kanamycin',
  'Trypsin',
  'DAPI',
  'Paraformaldehyde',
  'Triton X-100',
  'Tween 20',
  'BSA',
  'Anti-GFP',
  'Anti-beta-actin',
  'Anti-GAPDH',
  'Anti-mouse IgG HRP',
  'Taq polymerase',
  'dNTP mix',
  'Proteinase K',
  'RNase A',
  'Lipofectamine 3000',
  'DMEM',
  'Fetal bovine serum',
  'Penicillin-streptomycin',
  'PBS tablets',
  'Bradford reagent',
  'Ponceau S',
];
const VENDORS = ['Sigma-Aldrich', 'Thermo Fisher', 'Abcam', 'Merck', 'Roth', 'VWR', 'New England Biolabs', 'Qiagen', 'Bio-Rad', 'Promega'];
const UNITS = ['1 L', '500 mL', '100 mL', '25 g', '100 g', '1 kg', '100 µg', '50 µL', '500 units', '10 x 1 mL'];
const TYPE_NAMES = ['Chemical', 'Antibody', 'Enzyme', 'Cell culture', 'Consumable'];
const FIRST = ['Ada', 'Grace', 'Rosalind', 'Marie', 'Barbara', 'Dorothy', 'Linus', 'Frederick', 'Gregor', 'Louis'];
const LAST = ['Lovelace', 'Hopper', 'Franklin', 'Curie', 'McClintock', 'Hodgkin', 'Pauling', 'Sanger', 'Mendel', 'Pasteur'];

/** A small seeded generator, so two runs with the same sizes get the same rows. */
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Keeps a uniform random sample of at most `size` of everything offered. */
function reservoir(size, random) {
  const items = [];
  let seen = 0;
  return {
    items,
    offer(x) {
      seen++;
      if (items.length < size) items.push(x);
      else {
        const j = Math.floor(random() * seen);
        if (j < size) items[j] = x;
      }
    },
  };
}

const ITEM_COLUMNS = [
  'id',
  'lab_id',
  'type_id',
  'name',
  'vendor',
  'catalog_number',
  'price',
  'unit_size',
  'quantity',
  'url',
  'technical_details',
  'expiration_date',
  'auto_reminder',
  'lot_number',
  'cas_number',
  'vendor_product_id',
  'location_name',
  'sublocation_name',
  'serial_number',
  'added_by',
  'updated_by',
  'version',
  'created_at',
  'updated_at',
  // What the application keeps for search, filters and sorting (src/inventory/search/rules.ts), computed here the same way.
  'minimum_quantity',
  'below_minimum',
  'soonest_expiry',
  'name_key',
];
const SEARCH_COLUMNS = ['item_id', 'lab_id', 'created_at', 'document'];
const INSTANCE_COLUMNS = [
  'id',
  'item_id',
  'quantity',
  'lot_number',
  'expiration_date',
  'location_id',
  'archived_at',
  'created_at',
  'updated_at',
];
const ORDER_COLUMNS = [
  'id',
  'lab_id',
  'type_id',
  'status',
  'item_name',
  'vendor_name',
  'catalog_number',
  'vendor_product_id',
  'quantity',
  'unit_size',
  'unit_price',
  'currency',
  'notes',
  'required_before',
  'invoice_number',
  'requisition_number',
  'confirmation_number',
  'tracking_number',
  'purchase_order_number',
  'shipping_and_handling',
  'details',
  'spend_tracking_code',
  'backordered_expected_at',
  'is_urgent',
  'requested_by',
  'created_by',
  'updated_by',
  'requested_at',
  'updated_at',
  'created_at',
];
const ORDER_EVENT_COLUMNS = ['id', 'order_request_id', 'type', 'comment', 'created_by', 'created_at'];

/**
 * Fills `db` (from freshDatabase) and returns what the scenarios need: tokens, lab ids and uniform samples of
 * item and instance ids. `webhookLab` is a migrated lab whose instances the other scenarios leave alone.
 */
export async function generateDataset(db, { items, labs: labCount, progress, appUrl, sampleSize = 2000, seed = 42 }) {
  const random = rng(seed);
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' });
  const handle = openDatabase(config.database);
  await migrateToLatest(handle.db);

  // Accounts and labs through the services, as the command line makes them.
  const system = systemActor('cli');
  const org = await createOrganization(handle.db, system, { name: 'Benchmark University' });
  const admin = await createUser(handle.db, system, {
    organizationId: org.id,
    email: 'bench-admin@example.org',
    firstName: 'Ada',
    lastName: 'Admin',
    role: 'admin',
  });
  const labs = [];
  for (let i = 0; i < labCount; i++) {
    const migrated = i % 2 === 0;
    const lab = await createLab(handle.db, system, {
      organizationId: org.id,
      name: `${LAST[i % LAST.length]} lab ${i + 1}`,
      usesInstances: migrated,
    });
    const member = await createUser(handle.db, system, {
      organizationId: org.id,
      email: `bench-member-${i + 1}@example.org`,
      firstName: FIRST[i % FIRST.length],
      lastName: `${LAST[(i + 3) % LAST.length]} ${i + 1}`,
      role: 'member',
    });
    await addMember(handle.db, system, lab.id, member.id);
    labs.push({ id: lab.id, migrated, memberId: member.id, typeIds: [], shelfIds: [], itemCount: 0 });
  }
  const adminToken = await createToken(handle.db, system, { userId: admin.id, organizationId: org.id, name: 'bench admin' });
  const memberToken = await createToken(handle.db, system, { userId: labs[0].memberId, organizationId: org.id, name: 'bench member' });
  await handle.close();
  progress(`organization, ${labCount} labs, ${labCount + 1} users and tokens created through the services`);

  const writer = await openBulkWriter(db);
  const now = Date.now();
  const iso = (ms) => new Date(ms).toISOString();
  const setupTime = iso(now - 3 * 365 * 86_400_000 - 86_400_000);

  // Types and location trees (room > freezer > shelf) per lab.
  const typeRows = [];
  const locationRows = [];
  for (const lab of labs) {
    for (const name of TYPE_NAMES) {
      const id = uuid();
      lab.typeIds.push(id);
      typeRows.push([id, lab.id, name, typeNameKey(name), setupTime, setupTime]);
    }
    if (!lab.migrated) continue;
    for (let r = 1; r <= 2; r++) {
      const room = uuid();
      locationRows.push([room, lab.id, null, `Room ${100 + r}`, setupTime]);
      for (let f = 1; f <= 2; f++) {
        const freezer = uuid();
        locationRows.push([freezer, lab.id, room, `Freezer ${String.fromCharCode(64 + f)}`, setupTime]);
        for (let s = 1; s <= 3; s++) {
          const shelf = uuid();
          locationRows.push([shelf, lab.id, freezer, `Shelf ${s}`, setupTime]);
          lab.shelfIds.push(shelf);
        }
      }
    }
  }
  await writer.insert('types', ['id', 'lab_id', 'name', 'name_key', 'created_at', 'updated_at'], typeRows);
  await writer.insert('locations', ['id', 'lab_id', 'parent_id', 'name', 'created_at'], locationRows);

  // Items (and instances) in creation order over the last three years, interleaved over the labs.
  const webhookLab = labs.find((l) => l.migrated);
  const itemSample = reservoir(sampleSize, random);
  const instanceSample = reservoir(sampleSize, random);
  const webhookInstances = reservoir(sampleSize, random);
  // Words each found in about one item: lot numbers (or a catalog number), for the search scenario.
  const rareWords = reservoir(200, random);
  const span = 3 * 365 * 86_400_000;
  const start = now - span;
  const BATCH = 5000;
  let instanceCount = 0;
  let lastReport = Date.now();
  // SQLite: the search rows' ids in the list's order, as the application numbers them (searchIdBase); the items are
  // made in (created_at, id) order. PostgreSQL numbers them itself.
  let lastSearchId = 0;
  const searchIdOf = (created) => {
    lastSearchId = Math.max(lastSearchId + 1, searchIdBase(created));
    return lastSearchId;
  };
  for (let from = 0; from < items; from += BATCH) {
    const itemRows = [];
    const instanceRows = [];
    const searchRows = [];
    for (let g = from; g < Math.min(items, from + BATCH); g++) {
      const lab = labs[g % labs.length];
      lab.itemCount++;
      const created = iso(start + Math.floor((g / items) * span));
      const id = uuid();
      const substance = SUBSTANCES[g % SUBSTANCES.length];
      const vendor = pick(VENDORS);
      const user = random() < 0.5 ? admin.id : lab.memberId;
      const expiry = iso(now + Math.floor(random() * 2 * 365) * 86_400_000).slice(0, 10);
      const lot = `L${Math.floor(random() * 1e6)
        .toString(36)
        .toUpperCase()}`;
      const row = [
        id,
        lab.id,
        pick(lab.typeIds),
        `${substance} ${1 + (g % 997)}`,
        vendor,
        `${vendor.slice(0, 2).toUpperCase()}-${100000 + (g % 900000)}`,
        (5 + random() * 495).toFixed(2),
        pick(UNITS),
        lab.migrated ? '0' : String(Math.floor(random() * 20)),
        random() < 0.3 ? `https://shop.example.org/p/${g}` : null,
        random() < 0.4
          ? `Store at ${pick(['-20 °C', '4 °C', 'room temperature', '-80 °C'])}; ${substance} grade for molecular biology.`
          : null,
        lab.migrated ? null : expiry,
        null,
        lab.migrated ? null : lot,
        random() < 0.3 ? `${64 + (g % 900)}-17-5` : null,
        null,
        lab.migrated ? null : `Cabinet ${1 + (g % 8)}`,
        lab.migrated ? null : `Shelf ${String.fromCharCode(65 + (g % 5))}`,
        null,
        user,
        user,
        1,
        created,
        created,
      ];
      itemSample.offer({ id, labId: lab.id, migrated: lab.migrated });
      // Active instances: their lot numbers, expiries and quantity (in hundredths) for the index columns.
      const active = [];
      if (lab.migrated) {
        const n = 1 + Math.floor(random() * 5);
        for (let k = 0; k < n; k++) {
          const instanceId = uuid();
          const archived = k === n - 1 && n > 2 && random() < 0.3;
          const instance = [
            instanceId,
            id,
            (random() * 10).toFixed(2),
            `L${Math.floor(random() * 1e6)
              .toString(36)
              .toUpperCase()}`,
            iso(now + Math.floor(random() * 2 * 365) * 86_400_000).slice(0, 10),
            random() < 0.9 ? pick(lab.shelfIds) : null,
            archived ? created : null,
            created,
            created,
          ];
          instanceRows.push(instance);
          instanceCount++;
          if (archived) continue;
          active.push(instance);
          if (lab === webhookLab) webhookInstances.offer({ itemId: id, instanceId });
          else instanceSample.offer({ itemId: id, instanceId });
        }
      }
      // One item in fifty has a minimum of 5; it is below it when its quantity (instances' sum when migrated) is less.
      const hundredths = lab.migrated ? active.reduce((t, i) => t + Math.round(Number(i[2]) * 100), 0) : Number(row[8]) * 100;
      const minimum = random() < 0.02 ? '5' : null;
      const [name, , catalog_number] = [row[3], row[4], row[5]];
      row.push(
        minimum,
        minimum !== null && hundredths < 500 ? 1 : 0,
        lab.migrated ? soonestExpiry(active.map((i) => i[4])) : soonestExpiry([expiry]),
        nameSortKey(name),
      );
      itemRows.push(row);
      const item = { name, vendor, catalog_number, cas_number: row[14], serial_number: null, lot_number: row[13] };
      const lots = active.map((i) => i[3]);
      const doc = [id, lab.id, created, itemSearchDocument(item, lots)];
      searchRows.push(db.kind === 'sqlite' ? [searchIdOf(created), ...doc] : doc);
      rareWords.offer(lab.migrated ? (lots[0] ?? catalog_number) : lot);
    }
    await writer.insert('inventory_items', ITEM_COLUMNS, itemRows);
    await writer.insert('inventory_item_instances', INSTANCE_COLUMNS, instanceRows);
    await writer.insert('inventory_item_search', db.kind === 'sqlite' ? ['id', ...SEARCH_COLUMNS] : SEARCH_COLUMNS, searchRows);
    if (Date.now() - lastReport > 5000) {
      progress(`${Math.min(items, from + BATCH).toLocaleString('en-US')} / ${items.toLocaleString('en-US')} items`);
      lastReport = Date.now();
    }
  }

  // Order requests: one for every 20 items (at least 5 a lab), in every state, each with its history.
  const orderCount = Math.max(Math.floor(items / 20), labs.length * 5);
  const STATUSES = ['CREATED', 'APPROVED', 'ORDERED', 'RECEIVED', 'CANCELLED'];
  for (let from = 0; from < orderCount; from += BATCH) {
    const orderRows = [];
    const eventRows = [];
    for (let g = from; g < Math.min(orderCount, from + BATCH); g++) {
      const lab = labs[g % labs.length];
      const created = iso(start + Math.floor((g / orderCount) * span));
      const id = uuid();
      const status = pick(STATUSES);
      const vendor = pick(VENDORS);
      const quantity = 1 + Math.floor(random() * 10);
      orderRows.push([
        id,
        lab.id,
        pick(lab.typeIds),
        status,
        `${SUBSTANCES[g % SUBSTANCES.length]} ${1 + (g % 997)}`,
        vendor,
        `${vendor.slice(0, 2).toUpperCase()}-${200000 + g}`,
        null,
        String(quantity),
        pick(UNITS),
        (5 + random() * 495).toFixed(2),
        'EUR',
        random() < 0.2 ? 'Urgent for the next experiment' : null,
        null,
        null,
        null,
        null,
        status === 'ORDERED' || status === 'RECEIVED' ? `1Z${g}` : null,
        null,
        null,
        null,
        null,
        null,
        0,
        lab.memberId,
        lab.memberId,
        admin.id,
        created,
        created,
        created,
      ]);
      eventRows.push([uuid(), id, 'CREATED', null, lab.memberId, created]);
      if (status !== 'CREATED') eventRows.push([uuid(), id, status, null, admin.id, created]);
    }
    await writer.insert('order_requests', ORDER_COLUMNS, orderRows);
    await writer.insert('order_request_events', ORDER_EVENT_COLUMNS, eventRows);
  }
  await writer.finish();
  progress(
    `${items.toLocaleString('en-US')} items, ${instanceCount.toLocaleString('en-US')} instances, ${orderCount.toLocaleString('en-US')} order requests, ${locationRows.length} locations written`,
  );
  // Each item's stored document (docs/decisions/0015-stored-item-documents.md), as `labstock admin rebuild` writes
  // them after a bulk load, with the APP_URL the server will have (so that it keeps them).
  const rebuilt = openDatabase(config.database);
  const t = performance.now();
  const { written } = await rebuildDocuments(rebuilt.db, system, appUrl, {
    onProgress: (done, total) => {
      if (done % 50_000 < 500 || done === total)
        progress(`stored documents: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`);
    },
  });
  await rebuilt.close();
  progress(`${written.toLocaleString('en-US')} stored item documents written in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  return {
    orgId: org.id,
    adminToken: adminToken.token,
    memberToken: memberToken.token,
    counts: { labs: labs.length, items, instances: instanceCount, orderRequests: orderCount, locations: locationRows.length },
    labs: labs.map((l) => ({ id: l.id, migrated: l.migrated, typeIds: l.typeIds, itemCount: l.itemCount })),
    webhookLabId: webhookLab.id,
    samples: {
      items: itemSample.items,
      instances: instanceSample.items,
      webhookInstances: webhookInstances.items,
      rareWords: rareWords.items,
    },
  };
}
