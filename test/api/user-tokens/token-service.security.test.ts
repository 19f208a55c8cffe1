// createToken/revokeToken given an Actor (src/accounts/service.ts): only the caller's own token, in the organization
// it acts in; anything else is named like an unknown id, and nothing is written. The system may do either for anyone.
import { describe, expect, it } from 'vitest';
import { findToken } from '../../../src/accounts/repository.js';
import { createToken, revokeToken } from '../../../src/accounts/service.js';
import { type Actor, systemActor } from '../../../src/shared/actor.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const actorOf = (organizationId: string, userId: string): Actor => ({ tokenId: 'test', userId, organizationId, role: 'admin' });

describe('createToken and revokeToken take who is calling', () => {
  it('an Actor cannot create a token for another user, or for itself in another organization: 404, nothing written', async () => {
    const admin = actorOf(h.a.orgId, h.a.admin.id);
    await expect(createToken(h.deps.db, admin, { userId: h.a.member.id, organizationId: h.a.orgId })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(createToken(h.deps.db, admin, { userId: h.a.admin.id, organizationId: h.b.orgId })).rejects.toMatchObject({
      code: 'not_found',
    });
    const own = await createToken(h.deps.db, admin, { userId: h.a.admin.id, organizationId: h.a.orgId, name: 'own' });
    expect(own.user_id).toBe(h.a.admin.id);
  });

  it("an Actor cannot revoke another user's token; the system can", async () => {
    const theirs = await createToken(h.deps.db, systemActor('cli'), { userId: h.a.member.id, organizationId: h.a.orgId });
    await expect(revokeToken(h.deps.db, actorOf(h.a.orgId, h.a.admin.id), theirs.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(revokeToken(h.deps.db, actorOf(h.b.orgId, h.b.admin.id), theirs.id)).rejects.toMatchObject({ code: 'not_found' });
    expect((await findToken(h.deps.db, theirs.id))!.revoked_at).toBeNull();
    expect((await revokeToken(h.deps.db, actorOf(h.a.orgId, h.a.member.id), theirs.id)).revoked_at).not.toBeNull();
    const other = await createToken(h.deps.db, systemActor('cli'), { userId: h.b.member.id, organizationId: h.b.orgId });
    expect((await revokeToken(h.deps.db, systemActor('cli'), other.id)).revoked_at).not.toBeNull();
  });
});
