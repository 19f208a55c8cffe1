// Service operators, their tokens and their audit trail: src/operators/ owns these tables.
// Column choices (text ids, dates and decimals; 0/1 booleans): src/shared/db/schema.ts.

/** Service operators (docs/decisions/0004-operators.md): principals of the service, bound to no organization. */
export interface OperatorsTable {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  user_id: string;
  created_at: string;
  disabled_at: string | null;
}
export interface OperatorTokensTable {
  id: string;
  operator_id: string;
  name: string | null;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
export interface OperatorAuditTable {
  id: string;
  operator_id: string;
  action: string;
  sales_order_item_id: string | null;
  shipment_id: string | null;
  outcome: string;
  via: string;
  token_id: string | null;
  request_id: string | null;
  detail: string | null;
  created_at: string;
}
