import { createOrganization, createToken, createUser } from '../../src/accounts/service.js';
import { addInstance } from '../../src/inventory/instances.js';
import { createItem } from '../../src/inventory/items.js';
import { addMember, createLab } from '../../src/labs/service.js';
import { createLocation } from '../../src/locations/service.js';
import { type Actor, systemActor } from '../../src/shared/actor.js';
import type { ServiceDeps } from '../../src/shared/deps.js';
import { createType } from '../../src/types/service.js';

export interface OrgFixture {
  orgId: string;
  /** `actor` is the admin without a token, for building data through the services (see orgAdminActor). */
  admin: { id: string; token: string; email: string; actor: Actor };
  member: { id: string; token: string };
  /** A user of the organization who belongs to no lab. */
  outsider: { id: string; token: string };
  legacyLab: { id: string; typeId: string; itemId: string };
  migratedLab: { id: string; typeId: string; itemId: string; instanceIds: string[]; locationIds: string[] };
  /** A lab the member does not belong to. */
  otherLab: { id: string; typeId: string };
}

/**
 * An organization's admin acting without an API token: how fixtures (and tests that build data through the
 * services rather than over HTTP) call services, which always take an Actor. It sees every lab of the organization.
 */
export const orgAdminActor = (organizationId: string, userId: string): Actor => ({
  tokenId: 'fixture',
  userId,
  organizationId,
  role: 'admin',
});

/**
 * One organization built through the real services: a legacy lab (the member belongs to it), a migrated lab
 * (the member belongs to it too) with a three-level location tree, and a lab the member cannot see.
 */
export async function seedOrganization(deps: ServiceDeps, tag: string): Promise<OrgFixture> {
  const org = await createOrganization(deps.db, systemActor('cli'), { name: `Org ${tag}` });
  const admin = await createUser(deps.db, systemActor('cli'), {
    organizationId: org.id,
    email: `admin-${tag}@example.org`,
    firstName: 'Ada',
    lastName: `Admin${tag}`,
    role: 'admin',
  });
  const member = await createUser(deps.db, systemActor('cli'), {
    organizationId: org.id,
    email: `member-${tag}@example.org`,
    firstName: 'Max',
    lastName: `Member${tag}`,
    role: 'member',
  });
  const outsider = await createUser(deps.db, systemActor('cli'), {
    organizationId: org.id,
    email: `outsider-${tag}@example.org`,
    firstName: 'Olga',
    lastName: `Outsider${tag}`,
    role: 'member',
  });

  const asAdmin = orgAdminActor(org.id, admin.id);
  const legacy = await createLab(deps.db, asAdmin, { organizationId: org.id, name: `Legacy lab ${tag}` });
  const migrated = await createLab(deps.db, asAdmin, { organizationId: org.id, name: `Migrated lab ${tag}`, usesInstances: true });
  const other = await createLab(deps.db, asAdmin, { organizationId: org.id, name: `Other lab ${tag}` });
  await addMember(deps.db, asAdmin, legacy.id, member.id);
  await addMember(deps.db, asAdmin, migrated.id, member.id);

  const legacyType = await createType(deps, asAdmin, { labId: legacy.id, name: 'Reagent' });
  const migratedType = await createType(deps, asAdmin, { labId: migrated.id, name: 'Antibody' });
  const otherType = await createType(deps, asAdmin, { labId: other.id, name: 'Buffer' });

  const legacyItem = await createItem(deps, asAdmin, {
    labId: legacy.id,
    name: `Ethanol ${tag}`,
    typeId: legacyType.id,
    vendor: 'Sigma',
    catalogNumber: 'E7023',
    price: '42.50',
    unitSize: '1 L',
    quantity: '3',
    lotNumber: 'LOT-1',
    expirationDate: '2027-01-31',
    locationName: 'Cabinet 1',
    sublocationName: 'Shelf A',
  });

  const room = await createLocation(deps.db, asAdmin, { labId: migrated.id, parentId: null, name: 'Room 101' });
  const freezer = await createLocation(deps.db, asAdmin, { labId: migrated.id, parentId: room.id, name: 'Freezer A' });
  const shelf = await createLocation(deps.db, asAdmin, { labId: migrated.id, parentId: freezer.id, name: 'Shelf 2' });
  const migratedItem = await createItem(
    deps,
    asAdmin,
    {
      labId: migrated.id,
      name: `Anti-GFP ${tag}`,
      typeId: migratedType.id,
      vendor: 'Abcam',
      catalogNumber: 'ab290',
    },
    [{ quantity: '0.1', lotNumber: 'A1', expirationDate: '2027-06-30', locationId: shelf.id }],
  );
  const withTwo = await addInstance(deps, asAdmin, migratedItem.id, {
    quantity: '0.2',
    lotNumber: null,
    expirationDate: null,
    locationId: null,
  });

  const tokens = await Promise.all([
    createToken(deps.db, systemActor('cli'), { userId: admin.id, organizationId: org.id, name: 'admin' }),
    createToken(deps.db, systemActor('cli'), { userId: member.id, organizationId: org.id, name: 'member' }),
    createToken(deps.db, systemActor('cli'), { userId: outsider.id, organizationId: org.id, name: 'outsider' }),
  ]);

  return {
    orgId: org.id,
    admin: { id: admin.id, token: tokens[0].token, email: admin.email, actor: asAdmin },
    member: { id: member.id, token: tokens[1].token },
    outsider: { id: outsider.id, token: tokens[2].token },
    legacyLab: { id: legacy.id, typeId: legacyType.id, itemId: legacyItem.id },
    migratedLab: {
      id: migrated.id,
      typeId: migratedType.id,
      itemId: migratedItem.id,
      instanceIds: withTwo.instances.map((i) => i.id),
      locationIds: [room.id, freezer.id, shelf.id],
    },
    otherLab: { id: other.id, typeId: otherType.id },
  };
}
