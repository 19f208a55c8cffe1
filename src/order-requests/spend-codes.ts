import { requireLabManager } from '../labs/approval-settings.js';
import { findVisibleLab } from '../labs/repository.js';
import type { Actor, OperatorActor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import { dec } from '../shared/decimal.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, fieldError, notFound, validation } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { formatMajor, isCurrency, parseMoneyAmount, toMoney } from '../shared/money.js';
import { isDate, nowIso } from '../shared/time.js';
import type { SpendSettings, SpendTrackingCode, SpendTrackingCodeCreate, SpendTrackingCodeUpdate } from './details-schemas.js';
import * as repo from './repository.js';
import * as codes from './spend-codes-repository.js';
import { isOverBudget, periodOf, type SpendPeriod, spendByCurrency } from './spend-rules.js';

// Spend tracking codes and budgets per lab (docs/ordering.md, docs/product.md §13). The spend of a code in a period
// is the exact total price of its ORDERED, BACKORDERED and RECEIVED requests whose ordered_at falls in it.

// Org admins and the lab's managers (docs/ordering.md, Lab roles) manage its codes, budgets and budget setting.
const requireManager = (ex: Executor, actor: Actor, labId: string) =>
  requireLabManager(ex, actor, labId, "manage a lab's spend tracking codes and budgets");

async function visibleLab(ex: Executor, actor: Actor, labId: string) {
  const lab = await findVisibleLab(ex, actor, labId);
  if (!lab) throw notFound('lab');
  return lab;
}

/** Codes with their spend in the period of each that contains `on` (a date; today without one). */
async function renderCodes(ex: Executor, labId: string, rows: codes.SpendCodeRow[], on: string): Promise<SpendTrackingCode[]> {
  const spans = new Map<SpendPeriod, ReturnType<typeof periodOf>>();
  for (const r of rows) if (!spans.has(r.period)) spans.set(r.period, periodOf(on, r.period));
  const counted = new Map<SpendPeriod, Awaited<ReturnType<typeof codes.countedRequests>>>();
  for (const [period, span] of spans) {
    const names = rows.filter((r) => r.period === period).map((r) => r.name);
    counted.set(period, await codes.countedRequests(ex, labId, span, names));
  }
  return rows.map((r) => {
    const span = spans.get(r.period)!;
    const totals = spendByCurrency(counted.get(r.period)!.filter((c) => c.spend_tracking_code === r.name));
    const spent = [...totals.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, total]) => toMoney(total, currency));
    const budget = r.budget_amount !== null && r.budget_currency !== null ? dec(r.budget_amount) : null;
    const inBudgetCurrency = r.budget_currency ? (totals.get(r.budget_currency) ?? dec(0)) : dec(0);
    return {
      id: r.id,
      lab_id: r.lab_id,
      name: r.name,
      period: r.period,
      budget: budget ? toMoney(budget, r.budget_currency!) : null,
      period_start: span.start,
      period_end: span.end,
      spent,
      remaining: budget
        ? toMoney(isOverBudget(inBudgetCurrency, budget) ? dec(0) : budget.minus(inBudgetCurrency), r.budget_currency!)
        : null,
      over_budget: budget ? isOverBudget(inBudgetCurrency, budget) : false,
    };
  });
}

export async function listSpendCodes(deps: ServiceDeps, actor: Actor, labId: string, on?: string): Promise<SpendTrackingCode[]> {
  if (on !== undefined && !isDate(on)) throw fieldError('on', 'must be a calendar date (YYYY-MM-DD)');
  const lab = await visibleLab(deps.db, actor, labId);
  return renderCodes(deps.db, lab.id, await codes.codesOfLab(deps.db, lab.id), on ?? nowIso());
}

/** A budget as request bodies give it, in major units with the currency's digits; `field` names it in a 422. */
function parseBudget(input: { amount: string; currency: string }): { amount: string; currency: string } {
  const { currency } = input;
  if (!isCurrency(currency)) throw fieldError('budget.currency', `"${currency}" is not an ISO 4217 currency code`);
  const parsed = parseMoneyAmount(input.amount, currency);
  if ('error' in parsed) throw fieldError('budget.amount', parsed.error);
  return { amount: formatMajor(parsed.major, currency), currency };
}

/** PUT /spend-tracking-codes/{id}: its period and budget (null removes it); the name stays, as requests store it. */
export async function updateSpendCode(
  deps: ServiceDeps,
  actor: Actor,
  id: string,
  input: SpendTrackingCodeUpdate,
): Promise<SpendTrackingCode> {
  const budget = input.budget ? parseBudget(input.budget) : input.budget;
  return deps.db.transaction().execute(async (trx) => {
    const row = await codes.findVisibleCode(trx, actor, id);
    if (!row) throw notFound('spend tracking code');
    await requireManager(trx, actor, row.lab_id);
    const now = nowIso();
    const set: Parameters<typeof codes.updateCode>[2] = { updated_at: now };
    if (input.period !== undefined) set.period = input.period;
    if (budget !== undefined) Object.assign(set, { budget_amount: budget?.amount ?? null, budget_currency: budget?.currency ?? null });
    await codes.updateCode(trx, row.id, set);
    return (await renderCodes(trx, row.lab_id, [{ ...row, ...set }], now))[0]!;
  });
}

export async function createSpendCode(
  deps: ServiceDeps,
  actor: Actor,
  labId: string,
  input: SpendTrackingCodeCreate,
): Promise<SpendTrackingCode> {
  const name = input.name.trim();
  if (name === '') throw fieldError('name', 'must not be empty');
  const budget = input.budget ? parseBudget(input.budget) : null;
  return deps.db.transaction().execute(async (trx) => {
    const lab = await visibleLab(trx, actor, labId);
    await requireManager(trx, actor, lab.id);
    if (await codes.findCodeByName(trx, lab.id, name))
      throw new AppError('conflict', `The lab already has a spend tracking code named "${name}"`);
    const now = nowIso();
    const row: codes.SpendCodeRow = {
      id: newId(),
      lab_id: lab.id,
      name,
      period: input.period ?? 'month',
      budget_amount: budget?.amount ?? null,
      budget_currency: budget?.currency ?? null,
      created_by: actor.userId,
      created_at: now,
      updated_at: now,
    };
    await codes.insertCode(trx, row);
    return (await renderCodes(trx, lab.id, [row], now))[0]!;
  });
}

export async function getSpendSettings(deps: ServiceDeps, actor: Actor, labId: string): Promise<SpendSettings> {
  const lab = await visibleLab(deps.db, actor, labId);
  return { over_budget: (await codes.findSettings(deps.db, lab.id))?.over_budget ?? 'warn' };
}

export async function putSpendSettings(deps: ServiceDeps, actor: Actor, labId: string, input: SpendSettings): Promise<SpendSettings> {
  return deps.db.transaction().execute(async (trx) => {
    const lab = await visibleLab(trx, actor, labId);
    await requireManager(trx, actor, lab.id);
    await codes.saveSettings(trx, { lab_id: lab.id, over_budget: input.over_budget, updated_at: nowIso() });
    return { over_budget: input.over_budget };
  });
}

/**
 * The code a request may carry: one of its lab's, and in the budget's currency when it has one. Returns the name to
 * store, or null to clear it (`ref` null); `field` names the body field in the 422.
 */
export async function resolveSpendCodeIn(
  ex: Executor,
  labId: string,
  ref: { name: string } | null,
  currency: string,
  field = 'spend_tracking_code',
): Promise<string | null> {
  if (ref === null) return null;
  const code = await codes.findCodeByName(ex, labId, ref.name.trim());
  if (!code) throw validation([{ field: `${field}.name`, message: `the lab has no spend tracking code named "${ref.name}"` }]);
  if (code.budget_currency !== null && code.budget_currency !== currency) {
    throw validation([
      { field: `${field}.name`, message: `the code's budget is in ${code.budget_currency}; this request is priced in ${currency}` },
    ]);
  }
  return code.name;
}

/**
 * Checks a request that now counts against its code's budget (just ordered, or given a code once ordered). Within
 * budget: nothing. Over: 409 over_budget when the lab blocks (the caller's transaction rolls back), else a history
 * entry OVER_BUDGET that says by how much.
 */
export async function checkBudgetIn(trx: Executor, by: Actor | OperatorActor, row: repo.OrderRow, now: string): Promise<void> {
  if (row.spend_tracking_code === null || row.ordered_at === null) return;
  const code = await codes.findCodeForBudget(trx, row.lab_id, row.spend_tracking_code);
  if (!code || code.budget_amount === null || code.budget_currency !== row.currency) return;
  const span = periodOf(row.ordered_at, code.period);
  const others = await codes.countedRequests(trx, row.lab_id, span, [code.name], row.id);
  const spent = spendByCurrency([...others, row]).get(code.budget_currency) ?? dec(0);
  const budget = dec(code.budget_amount);
  if (!isOverBudget(spent, budget)) return;
  const message =
    `Spend tracking code "${code.name}" would spend ${formatMajor(spent, code.budget_currency)} ${code.budget_currency} ` +
    `of its ${formatMajor(budget, code.budget_currency)} budget for ${span.start}..${span.end}`;
  if ((await codes.findSettings(trx, row.lab_id))?.over_budget === 'block') {
    throw new AppError('over_budget', `${message}; the lab blocks spending over budget`);
  }
  await repo.insertHistory(trx, {
    id: newId(),
    order_request_id: row.id,
    type: 'OVER_BUDGET',
    comment: message,
    created_by: by.userId,
    created_at: now,
  });
}
