import { findVendorProduct } from '../catalogue/repository.js';
import { subscribersFromJson } from '../delivery/webhook-repository.js';
import { emitEventWith } from '../events/outbox.js';
import { toLab } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { runWrites } from '../shared/db/precompiled.js';
import type { ServiceDeps } from '../shared/deps.js';
import { type FieldError, notFound, validation } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { formatMajor, isCurrency, parseMoneyAmount } from '../shared/money.js';
import { isDate, nowIso } from '../shared/time.js';
import { queueApprovalMail } from './approval.js';
import { renderOrderFrom } from './render.js';
import type { OrderRow } from './repository.js';
import type { ApprovalRule } from './rules.js';
import type { OrderRequest, OrderRequestCreate } from './schemas.js';
import { resolveSpendCodeIn } from './spend-codes.js';
import { findCreateContext, historyInsertQuery, orderInsertQuery } from './write-repository.js';

// POST /order-requests (and reorder, src/order-requests/reorder.ts) in the fewest statements
// (docs/decisions/0030-precompiled-writes.md; counted by test/perf/write-budgets.test.ts): one read of the lab, the
// type, the caller, the lab's approval rule and the organization's webhooks; then the request, its history row, its
// event and the event's deliveries in one batch (one statement on PostgreSQL). A vendor product, a spend tracking
// code and a rule that asks for approval each cost their own statements, as before.

export type CreateOrderInput = OrderRequestCreate;

function checkCreateInput(input: CreateOrderInput): { unitPrice: string } {
  const errors: FieldError[] = [];
  for (const field of ['name', 'vendor_name', 'catalog_number'] as const) {
    if (input[field].trim() === '') errors.push({ field, message: 'must not be empty' });
  }
  let unitPrice = '';
  if (!isCurrency(input.price.currency)) {
    errors.push({ field: 'price.currency', message: `"${input.price.currency}" is not an ISO 4217 currency code` });
  } else {
    const parsed = parseMoneyAmount(input.price.amount, input.price.currency);
    if ('error' in parsed) errors.push({ field: 'price.amount', message: parsed.error });
    else unitPrice = formatMajor(parsed.major, input.price.currency);
  }
  if (input.required_before !== undefined && !isDate(input.required_before)) {
    errors.push({ field: 'required_before', message: 'must be a calendar date (YYYY-MM-DD)' });
  }
  if (errors.length > 0) throw validation(errors);
  return { unitPrice };
}

/** `unitSize`: what a reorder copies from the item (POST /order-requests takes no unit_size: it is a detail, PATCHed). */
export async function createOrder(
  deps: ServiceDeps,
  actor: Actor,
  input: CreateOrderInput,
  from: { unitSize?: string | null } = {},
): Promise<OrderRequest> {
  const { unitPrice } = checkCreateInput(input);
  return deps.db.transaction().execute(async (trx) => {
    const found = await findCreateContext(trx, actor, input.lab_id, input.type_id, deps.config.webhookRequireVerification);
    if (!found) throw notFound('lab');
    if (found.type_name === null) throw notFound('type in that lab');
    if (input.vendor_product_id !== undefined) {
      if (!(await findVendorProduct(trx, input.vendor_product_id))) throw notFound('vendor product');
    }
    const spendCode = await resolveSpendCodeIn(trx, found.id, input.spend_tracking_code ?? null, input.price.currency);
    const now = nowIso();
    const row: OrderRow = {
      id: newId(),
      lab_id: found.id,
      type_id: input.type_id,
      status: 'CREATED',
      item_name: input.name.trim(),
      vendor_name: input.vendor_name.trim(),
      catalog_number: input.catalog_number.trim(),
      vendor_product_id: input.vendor_product_id ?? null,
      quantity: String(input.quantity),
      unit_size: from.unitSize?.trim() || null,
      unit_price: unitPrice,
      currency: input.price.currency,
      notes: input.notes ?? null,
      required_before: input.required_before ?? null,
      invoice_number: null,
      requisition_number: null,
      confirmation_number: null,
      tracking_number: null,
      purchase_order_number: null,
      shipping_and_handling: null,
      details: null,
      spend_tracking_code: spendCode,
      backordered_expected_at: null,
      checked_out_line_id: null,
      ordered_at: null,
      is_urgent: 0,
      requested_by: actor.userId,
      created_by: actor.userId,
      updated_by: actor.userId,
      requested_at: now,
      updated_at: now,
      created_at: now,
    };
    const writes = [
      orderInsertQuery(trx, row),
      historyInsertQuery(trx, {
        id: newId(),
        order_request_id: row.id,
        type: 'CREATED',
        comment: null,
        created_by: actor.userId,
        created_at: now,
      }),
    ];
    const rule: ApprovalRule | undefined =
      found.rule === null
        ? undefined
        : { rule: found.rule, threshold_amount: found.threshold_amount, threshold_currency: found.threshold_currency };
    if (rule && rule.rule !== 'none') {
      // The notices point at the request: it is written first.
      await runWrites(trx, writes.splice(0));
      await queueApprovalMail(trx, row, rule);
    }
    const lab = toLab(found);
    // The keys in the order a rendered UserSummary has them (src/accounts/repository.ts userSummaries).
    const me = { id: actor.userId, first_name: found.first_name, last_name: found.last_name, email: found.email };
    const order = renderOrderFrom(deps.config.appUrl, row, lab, new Map([[actor.userId, me]]), {
      id: input.type_id,
      name: found.type_name,
    });
    await emitEventWith(
      trx,
      deps.config,
      { type: 'order-request.created', organizationId: lab.organization.id, labId: lab.id, resource: order },
      subscribersFromJson(found.subscribers),
      writes,
    );
    return order;
  });
}
