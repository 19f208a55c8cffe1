import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Command } from 'commander';
import { CATALOGUE_COLUMNS, type CatalogueProduct, parseCatalogueRow } from '../catalogue/rules.js';
import { systemActor } from '../shared/actor.js';
import type { LineStatus } from '../shop/schemas.js';
import { withContext } from './context.js';
import { emit, table, UsageError } from './output.js';
import type { Same } from './same.js';

// The actions import their services when they run (src/cli/admin.ts says why).
const operatorsService = () => import('../operators/service.js');
const fulfilment = () => import('../shop/fulfilment.js');

/**
 * src/shop/schemas.ts's LINE_STATUSES, here so that registering the commands does not load TypeBox and every schema
 * that file imports; the check below fails the type check when the lists differ.
 */
const LINE_STATUSES = ['PLACED', 'BACKORDERED', 'INDEFINITELY_BACKORDERED', 'SHIPPED', 'DELIVERED', 'CANCELLED'] as const;
const sameStatuses: Same<(typeof LINE_STATUSES)[number], LineStatus> = true;
void sameStatuses;

type Json = { json?: boolean };

interface SourceRow {
  /** Where the row is in the file, for error messages: a CSV line or a JSON array index. */
  where: string;
  raw: Record<string, unknown>;
}

/** Reads a catalogue file: CSV with a header row, or JSON (an array of objects, or {"products": [...]}). */
export async function readCatalogue(file: string, format?: string): Promise<SourceRow[]> {
  const text = await readFile(file, 'utf8');
  const kind = (format ?? extname(file).slice(1)).toLowerCase();
  if (kind === 'json') {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`${file} is not valid JSON: ${(e as Error).message}`);
    }
    const list = Array.isArray(doc) ? doc : (doc as { products?: unknown })?.products;
    if (!Array.isArray(list)) throw new UsageError(`${file}: expected a JSON array of products or {"products": [...]}`);
    return list.map((raw, i) => {
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { where: `[${i}] (not an object)`, raw: {} };
      return { where: `[${i}]`, raw: raw as Record<string, unknown> };
    });
  }
  if (kind === 'csv') {
    const { parse: parseCsv } = await import('csv-parse/sync');
    const records = parseCsv(text, { columns: true, bom: true, skip_empty_lines: true, trim: true, info: true }) as {
      record: Record<string, string>;
      info: { lines: number };
    }[];
    return records.map((r) => ({ where: `line ${r.info.lines}`, raw: r.record }));
  }
  throw new UsageError(`cannot tell the format of ${file}: name it .csv or .json, or pass --format csv|json`);
}

async function progressBar(enabled: boolean, total: number, label: string) {
  if (!enabled || !process.stderr.isTTY) return { update: (_n: number) => undefined, stop: () => undefined };
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {percentage}% {value}/{total} | {eta_formatted} left`, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return { update: (n: number) => bar.update(n), stop: () => bar.stop() };
}

export function registerShop(admin: Command): void {
  const shop = admin.command('shop').description('the shop: catalogue import and order fulfilment (operators)');

  shop
    .command('import')
    .description(`load or update the catalogue from CSV or JSON (columns ${CATALOGUE_COLUMNS.join(', ')}; price in major units)`)
    .requiredOption('--file <path>', 'catalogue file (.csv or .json)')
    .option('--format <format>', 'csv or json (default: from the file name)')
    .option('--json', 'print JSON')
    .action((o: Json & { file: string; format?: string }) =>
      withContext(async ({ deps }) => {
        const rows = await readCatalogue(o.file, o.format);
        const products: CatalogueProduct[] = [];
        const problems: string[] = [];
        for (const row of rows) {
          const parsed = parseCatalogueRow(row.raw);
          if ('errors' in parsed) problems.push(`${row.where}: ${parsed.errors.join('; ')}`);
          else products.push(parsed.product);
        }
        if (problems.length > 0) {
          const shown = problems.slice(0, 20).join('\n  ');
          throw new UsageError(
            `${problems.length} invalid row${problems.length > 1 ? 's' : ''} in ${o.file}; nothing was imported:\n  ${shown}${problems.length > 20 ? `\n  … and ${problems.length - 20} more` : ''}`,
          );
        }
        const bar = await progressBar(!o.json, products.length, 'importing');
        const { importCatalogue } = await import('../catalogue/service.js');
        const result = await importCatalogue(deps, systemActor('cli'), products, (n) => bar.update(n)).finally(() => bar.stop());
        emit(
          !!o.json,
          { rows: products.length, ...result },
          () => `${products.length} products read: ${result.created} created, ${result.updated} updated`,
        );
      }),
    );

  shop
    .command('lines')
    .description('list sales order items to fulfil')
    .requiredOption('--operator <id|email>', 'the operator acting (admin operator create); audited as the CLI')
    .option('--status <statuses>', `comma-separated: ${LINE_STATUSES.join(', ')}`)
    .option('--page <n>', 'page', '1')
    .option('--json', 'print JSON')
    .action((o: Json & { operator: string; status?: string; page: string }) =>
      withContext(async ({ deps, handle }) => {
        const statuses = (o.status ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const unknown = statuses.filter((s) => !(LINE_STATUSES as readonly string[]).includes(s));
        if (unknown.length > 0) throw new UsageError(`--status: unknown ${unknown.join(', ')}; use ${LINE_STATUSES.join(', ')}`);
        const [{ listOpenLines }, { cliOperator }, { pageOf }] = await Promise.all([
          fulfilment(),
          operatorsService(),
          import('../shared/pagination.js'),
        ]);
        const { lines } = await listOpenLines(
          deps,
          await cliOperator(handle.db, o.operator),
          { statuses: statuses as LineStatus[] },
          pageOf({ page: Number(o.page), per_page: 100 }),
        );
        emit(!!o.json, lines, () =>
          table(
            lines.map((l) => ({
              id: l.id,
              status: l.status,
              quantity: l.quantity,
              shipped: l.shipped,
              product: l.product.item_name,
              order: l.sales_order.key,
              lab: l.ship_to.lab.name,
            })),
            ['id', 'status', 'quantity', 'shipped', 'product', 'order', 'lab'],
          ),
        );
      }),
    );

  shop
    .command('ship')
    .description('add a shipment to a sales order item')
    .requiredOption('--operator <id|email>', 'the operator acting (admin operator create); audited as the CLI')
    .requiredOption('--line <id>', 'sales order item id')
    .requiredOption('--carrier <name>', 'carrier')
    .requiredOption('--tracking <code>', 'tracking number')
    .requiredOption('--quantity <n>', 'units in this shipment')
    .option('--shipped-at <datetime>', 'when it left (default now)')
    .option('--json', 'print JSON')
    .action((o: Json & { operator: string; line: string; carrier: string; tracking: string; quantity: string; shippedAt?: string }) =>
      withContext(async ({ deps, handle }) => {
        const quantity = Number(o.quantity);
        if (!Number.isInteger(quantity) || quantity < 1)
          throw new UsageError(`--quantity: expected a whole number of at least 1, got "${o.quantity}"`);
        const [{ shipLine }, { cliOperator }] = await Promise.all([fulfilment(), operatorsService()]);
        const s = await shipLine(deps, await cliOperator(handle.db, o.operator), o.line, {
          carrier: o.carrier,
          tracking: o.tracking,
          quantity,
          shipped_at: o.shippedAt,
        });
        emit(!!o.json, s, () => `shipment ${s.id} of ${s.quantity} created (${s.carrier} ${s.tracking})`);
      }),
    );

  shop
    .command('deliver')
    .description('mark a shipment delivered')
    .requiredOption('--operator <id|email>', 'the operator acting (admin operator create); audited as the CLI')
    .requiredOption('--shipment <id>', 'shipment id')
    .option('--delivered-at <datetime>', 'when it arrived (default now)')
    .option('--json', 'print JSON')
    .action((o: Json & { operator: string; shipment: string; deliveredAt?: string }) =>
      withContext(async ({ deps, handle }) => {
        const [{ deliverShipment }, { cliOperator }] = await Promise.all([fulfilment(), operatorsService()]);
        const s = await deliverShipment(deps, await cliOperator(handle.db, o.operator), o.shipment, { delivered_at: o.deliveredAt });
        emit(!!o.json, s, () => `shipment ${s.id} delivered at ${s.delivered_at}`);
      }),
    );

  shop
    .command('backorder')
    .description('backorder a sales order item (without --expected: indefinitely)')
    .requiredOption('--operator <id|email>', 'the operator acting (admin operator create); audited as the CLI')
    .requiredOption('--line <id>', 'sales order item id')
    .option('--expected <date>', 'expected date YYYY-MM-DD')
    .option('--json', 'print JSON')
    .action((o: Json & { operator: string; line: string; expected?: string }) =>
      withContext(async ({ deps, handle }) => {
        const [{ backorderLine }, { cliOperator }] = await Promise.all([fulfilment(), operatorsService()]);
        const l = await backorderLine(deps, await cliOperator(handle.db, o.operator), o.line, { expected_at: o.expected ?? null });
        emit(!!o.json, l, () => `line ${l.id} is ${l.status}${o.expected ? ` until ${o.expected}` : ''}`);
      }),
    );

  shop
    .command('cancel')
    .description('cancel a sales order item nothing of which has shipped')
    .requiredOption('--operator <id|email>', 'the operator acting (admin operator create); audited as the CLI')
    .requiredOption('--line <id>', 'sales order item id')
    .option('--reason <text>', 'why')
    .option('--json', 'print JSON')
    .action((o: Json & { operator: string; line: string; reason?: string }) =>
      withContext(async ({ deps, handle }) => {
        const [{ cancelLine }, { cliOperator }] = await Promise.all([fulfilment(), operatorsService()]);
        const l = await cancelLine(deps, await cliOperator(handle.db, o.operator), o.line, { reason: o.reason });
        emit(!!o.json, l, () => `line ${l.id} cancelled`);
      }),
    );
}

/**
 * `admin user set-operator`, kept for scripts: operators are principals of their own now (admin operator …), so
 * this gives the user's e-mail an operator principal (or disables it, with --off). The user's tokens never fulfil.
 */
export function registerOperatorFlag(user: Command): void {
  user
    .command('set-operator')
    .description("give the user's e-mail a service operator principal (or disable it, with --off); see admin operator")
    .requiredOption('--user <id>', 'user id')
    .option('--off', 'disable the operator and revoke its tokens')
    .option('--json', 'print JSON')
    .action((o: Json & { user: string; off?: boolean }) =>
      withContext(async ({ handle }) => {
        const { setUserOperator } = await operatorsService();
        const op = await setUserOperator(handle.db, systemActor('cli'), o.user, !o.off);
        const active = op !== null && op.disabled_at === null;
        emit(!!o.json, { id: o.user, is_operator: active, operator_id: op?.id ?? null }, () =>
          active
            ? `operator ${op.id} <${op.email}> acts for user ${o.user}'s e-mail; it needs its own token: labstock admin operator token create --operator ${op.id}`
            : `user ${o.user}'s e-mail has no active service operator`,
        );
      }),
    );
}
