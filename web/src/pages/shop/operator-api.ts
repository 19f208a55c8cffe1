import { createLabstockClient, type LabstockClient } from '@labstock/client';

// Service operators do not sign in to the application (docs/decisions/0004-operators.md): fulfilment is called with
// their lso_ token, which always wins over a session cookie (docs/auth.md). The token stays in this tab's memory
// only, never in storage, because it reaches every organization's order lines.

let token: string | null = null;
let client: LabstockClient | null = null;

export const operatorToken = (): string | null => token;

export function setOperatorToken(value: string | null): void {
  token = value;
  client = value ? createLabstockClient({ baseUrl: window.location.origin, token: value }) : null;
}

export function operatorApi(): LabstockClient {
  if (!client) throw new Error('No operator token');
  return client;
}
