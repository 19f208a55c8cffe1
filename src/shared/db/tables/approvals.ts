// Approvals (migration 0014, docs/ordering.md): lab roles and approval rules are owned by src/labs/
// (approval-repository.ts); the mails still to send by src/order-requests/ (approval-repository.ts).

export type LabRole = 'member' | 'approver' | 'manager';
export type ApprovalRuleKind = 'none' | 'all' | 'above';

export interface LabMembershipRoleColumns {
  role: LabRole;
}
export interface LabApprovalRulesTable {
  lab_id: string;
  rule: ApprovalRuleKind;
  /** Major units ("250.00") of `threshold_currency`; both null unless the rule is 'above'. */
  threshold_amount: string | null;
  threshold_currency: string | null;
  updated_by: string;
  updated_at: string;
}
export interface ApprovalNoticesTable {
  id: string;
  order_request_id: string;
  user_id: string;
  created_at: string;
  lease_until: string | null;
}
