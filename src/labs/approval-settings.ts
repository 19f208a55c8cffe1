import { type Actor, isOrgAdmin } from '../shared/actor.js';
import type { Db, Executor } from '../shared/db/database.js';
import type { LabApprovalRulesTable, LabRole } from '../shared/db/schema.js';
import { dec } from '../shared/decimal.js';
import { AppError, type FieldError, notFound, validation } from '../shared/errors.js';
import { formatMajor, isCurrency, parseMoneyAmount, toMoney } from '../shared/money.js';
import { nowIso } from '../shared/time.js';
import * as repo from './approval-repository.js';
import type { LabApprovalSettings, UpdateLabApprovalSettingsBody } from './approval-schemas.js';
import { findVisibleLab } from './repository.js';

// A lab's approval rule and who may set it (docs/ordering.md, docs/product.md §13): anyone who sees the lab reads
// it; org admins (managers everywhere) and the lab's managers change it. Without a row the rule is 'none'.

/** The caller's role in a lab as approvals see it: org admins act as managers in every lab of their organization. */
export async function effectiveLabRole(ex: Executor, actor: Actor, labId: string): Promise<LabRole | null> {
  if (isOrgAdmin(actor)) return 'manager';
  return (await repo.labRoleOf(ex, labId, actor.userId)) ?? null;
}

/** Refuses (403) anyone but an org admin or a manager of the lab; the caller has already found the lab visible. */
export async function requireLabManager(ex: Executor, actor: Actor, labId: string, what: string): Promise<void> {
  if ((await effectiveLabRole(ex, actor, labId)) !== 'manager') {
    throw new AppError('forbidden', `Only organization admins and the lab's managers ${what}`);
  }
}

const render = (labId: string, row: LabApprovalRulesTable | undefined, myRole: LabRole | null): LabApprovalSettings => ({
  lab_id: labId,
  rule: row?.rule ?? 'none',
  threshold:
    row?.rule === 'above' && row.threshold_amount !== null && row.threshold_currency !== null
      ? toMoney(dec(row.threshold_amount), row.threshold_currency)
      : null,
  my_role: myRole,
});

export async function getApprovalSettings(db: Db, actor: Actor, labId: string): Promise<LabApprovalSettings> {
  const lab = await findVisibleLab(db, actor, labId);
  if (!lab) throw notFound('lab');
  return render(lab.id, await repo.findApprovalRule(db, lab.id), await effectiveLabRole(db, actor, lab.id));
}

function checkRule(input: UpdateLabApprovalSettingsBody): { amount: string | null; currency: string | null } {
  const t = input.threshold ?? null;
  if (input.rule !== 'above') {
    if (t !== null) throw validation([{ field: 'threshold', message: `only the rule "above" has a threshold` }]);
    return { amount: null, currency: null };
  }
  if (t === null) throw validation([{ field: 'threshold', message: 'required with the rule "above"' }]);
  const errors: FieldError[] = [];
  if (!isCurrency(t.currency)) {
    errors.push({ field: 'threshold.currency', message: `"${t.currency}" is not an ISO 4217 currency code` });
    throw validation(errors);
  }
  const parsed = parseMoneyAmount(t.amount, t.currency);
  if ('error' in parsed) throw validation([{ field: 'threshold.amount', message: parsed.error }]);
  return { amount: formatMajor(parsed.major, t.currency), currency: t.currency };
}

export async function updateApprovalSettings(
  db: Db,
  actor: Actor,
  labId: string,
  input: UpdateLabApprovalSettingsBody,
): Promise<LabApprovalSettings> {
  return db.transaction().execute(async (trx) => {
    const lab = await findVisibleLab(trx, actor, labId);
    if (!lab) throw notFound('lab');
    await requireLabManager(trx, actor, lab.id, 'set its approval rule');
    const { amount, currency } = checkRule(input);
    await repo.saveApprovalRule(trx, {
      lab_id: lab.id,
      rule: input.rule,
      threshold_amount: amount,
      threshold_currency: currency,
      updated_by: actor.userId,
      updated_at: nowIso(),
    });
    return render(lab.id, await repo.findApprovalRule(trx, lab.id), await effectiveLabRole(trx, actor, lab.id));
  });
}
