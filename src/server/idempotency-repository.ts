import type { Executor } from '../shared/db/database.js';
import type { IdempotencyKeysTable } from '../shared/db/schema.js';

// The queries of src/server: Idempotency-Key claims (src/server/idempotency.ts explains the states).
// A claim is identified by its token, key and the instant it was claimed, so a request never touches a claim
// that a retry took over (the same key claimed again later).

export interface ClaimId {
  tokenId: string;
  key: string;
  claimedAt: string;
}

export type IdempotencyRow = IdempotencyKeysTable;

const mine = (ex: Executor, claim: ClaimId) => ({
  update: () =>
    ex
      .updateTable('idempotency_keys')
      .where('token_id', '=', claim.tokenId)
      .where('key', '=', claim.key)
      .where('created_at', '=', claim.claimedAt),
  delete: () =>
    ex
      .deleteFrom('idempotency_keys')
      .where('token_id', '=', claim.tokenId)
      .where('key', '=', claim.key)
      .where('created_at', '=', claim.claimedAt),
});

export async function insertClaim(ex: Executor, row: IdempotencyRow): Promise<void> {
  await ex.insertInto('idempotency_keys').values(row).execute();
}

export const findClaim = (ex: Executor, tokenId: string, key: string) =>
  ex.selectFrom('idempotency_keys').selectAll().where('token_id', '=', tokenId).where('key', '=', key).executeTakeFirst();

/** Deletes the row seen at `createdAt` if its status is still `status` (an expired or abandoned claim). */
export async function deleteStaleClaim(ex: Executor, tokenId: string, key: string, createdAt: string, status: number): Promise<void> {
  await ex
    .deleteFrom('idempotency_keys')
    .where('token_id', '=', tokenId)
    .where('key', '=', key)
    .where('created_at', '=', createdAt)
    .where('status_code', '=', status)
    .execute();
}

/** Sets the status of a claim that has no response yet; false if the claim is no longer this request's. */
export async function setPendingStatus(ex: Executor, claim: ClaimId, status: number, from: readonly number[]): Promise<boolean> {
  const result = await mine(ex, claim).update().set({ status_code: status }).where('status_code', 'in', from).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Stores the response of a claim that has none yet, if its status is one of `from`; false if nothing matched. */
export async function storeResponse(
  ex: Executor,
  claim: ClaimId,
  statusCode: number,
  body: string,
  from: readonly number[],
): Promise<boolean> {
  const result = await mine(ex, claim)
    .update()
    .set({ status_code: statusCode, response_body: body })
    .where('status_code', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Releases a claim whose status is still `status` (nothing committed), so a retry may do the work. */
export async function releaseClaim(ex: Executor, claim: ClaimId, status: number): Promise<void> {
  await mine(ex, claim).delete().where('status_code', '=', status).execute();
}
