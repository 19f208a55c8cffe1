import { inviteUser } from '../accounts/invitations.js';
import { createOrganization, createToken, createUser } from '../accounts/service.js';
import { addInstance } from '../inventory/instances.js';
import { createItem } from '../inventory/items.js';
import { addMember, createLab } from '../labs/service.js';
import { createLocation } from '../locations/service.js';
import { createOperator, createOperatorToken } from '../operators/service.js';
import { type Actor, systemActor } from '../shared/actor.js';
import type { ServiceDeps } from '../shared/deps.js';
import { createMailer } from '../shared/mail.js';
import { createType } from '../types/service.js';
import { type DemoChemistry, seedChemistry } from './chemistry.js';
import { seedDocuments } from './documents.js';
import { type DemoShop, seedOrdersAndShop } from './shop.js';

export interface DemoResult extends DemoShop, DemoChemistry {
  organization_id: string;
  admin_user_id: string;
  member_user_id: string;
  token: string;
  member_token: string;
  /** A service operator (no organization) and its lso_ token: only shop fulfilment accepts it. */
  operator_id: string;
  operator_token: string;
  legacy_lab_id: string;
  migrated_lab_id: string;
  migrated_item_id: string;
  migrated_instance_id: string;
  legacy_item_id: string;
  type_id: string;
}

/**
 * The demo organization, built through the same services the API uses (so its events are in the outbox too):
 * a legacy lab and a migrated lab with a five-level location tree, items, instances, order requests in every
 * state, and a small shop catalogue.
 */
export async function seedDemo(deps: ServiceDeps): Promise<DemoResult> {
  // The demo is seeded from the command line: the installation-level steps act as the system.
  const system = systemActor('cli');
  const org = await createOrganization(deps.db, system, { name: 'Demo University' });
  const admin = await createUser(deps.db, system, {
    organizationId: org.id,
    email: 'ada.admin@demo.labstock.test',
    firstName: 'Ada',
    lastName: 'Lovelace',
    role: 'admin',
  });
  const member = await createUser(deps.db, system, {
    organizationId: org.id,
    email: 'max.member@demo.labstock.test',
    firstName: 'Max',
    lastName: 'Planck',
    role: 'member',
  });

  // The services take an Actor: the seed acts as the organization's admin, without a token.
  const adminActor: Actor = { tokenId: 'demo', userId: admin.id, organizationId: org.id, role: 'admin' };
  // Someone invited who has not joined yet, as the Members page shows them. Never mailed: the demo's addresses
  // reach nobody, and a demo run with SMTP_URL set must not send.
  const quiet = { info: () => undefined, warn: () => undefined };
  const mailer = createMailer({ smtpUrl: null, from: deps.config.mail.from }, quiet);
  await inviteUser({ db: deps.db, appUrl: deps.config.appUrl, mailer, log: quiet }, adminActor, {
    email: 'rosalind.franklin@demo.labstock.test',
    first_name: 'Rosalind',
    last_name: 'Franklin',
  });
  const legacy = await createLab(deps.db, adminActor, { organizationId: org.id, name: 'Chemistry Teaching Lab' });
  const migrated = await createLab(deps.db, adminActor, { organizationId: org.id, name: 'Molecular Biology Lab', usesInstances: true });
  for (const lab of [legacy, migrated]) await addMember(deps.db, adminActor, lab.id, member.id);

  const reagent = await createType(deps, adminActor, { labId: legacy.id, name: 'Reagent' });
  await createType(deps, adminActor, { labId: legacy.id, name: 'Glassware' });
  const antibody = await createType(deps, adminActor, { labId: migrated.id, name: 'Antibody' });
  const enzyme = await createType(deps, adminActor, { labId: migrated.id, name: 'Enzyme' });

  const legacyItem = await createItem(deps, adminActor, {
    labId: legacy.id,
    name: 'Ethanol absolute',
    typeId: reagent.id,
    vendor: 'Sigma-Aldrich',
    catalogNumber: 'E7023',
    price: '42.50',
    unitSize: '1 L',
    quantity: '6',
    lotNumber: 'SZBF1234',
    expirationDate: '2027-03-31',
    locationName: 'Flammables cabinet',
    sublocationName: 'Shelf 2',
    casNumber: '64-17-5',
    url: 'https://www.sigmaaldrich.com/catalog/product/sigald/e7023',
  });
  await createItem(deps, adminActor, {
    labId: legacy.id,
    name: 'Sodium chloride',
    typeId: reagent.id,
    vendor: 'Fisher',
    catalogNumber: 'S271-3',
    price: '38.00',
    unitSize: '3 kg',
    quantity: '2.5',
    lotNumber: 'NC-887',
    locationName: 'Shelf B',
  });

  // Building > Floor > Room > Freezer > Rack: five levels of the seven allowed.
  let parent: string | null = null;
  const chain: string[] = [];
  for (const name of ['Biology Building', 'Floor 2', 'Room 214', 'Freezer -80 °C', 'Rack 3']) {
    const loc: { id: string } = await createLocation(deps.db, adminActor, { labId: migrated.id, parentId: parent, name });
    chain.push(loc.id);
    parent = loc.id;
  }
  const bench = await createLocation(deps.db, adminActor, { labId: migrated.id, parentId: chain[2]!, name: 'Bench 4' });

  const gfp = await createItem(
    deps,
    adminActor,
    {
      labId: migrated.id,
      name: 'Anti-GFP antibody',
      typeId: antibody.id,
      vendor: 'Abcam',
      catalogNumber: 'ab290',
      price: '415.00',
      unitSize: '100 µL',
    },
    [{ quantity: '0.5', lotNumber: 'GR3323', expirationDate: '2027-08-31', locationId: chain[4]! }],
  );
  const withSecond = await addInstance(deps, adminActor, gfp.id, {
    quantity: '1',
    lotNumber: 'GR4410',
    expirationDate: '2028-01-31',
    locationId: chain[3]!,
  });
  await createItem(
    deps,
    adminActor,
    {
      labId: migrated.id,
      name: 'EcoRI-HF',
      typeId: enzyme.id,
      vendor: 'New England Biolabs',
      catalogNumber: 'R3101S',
      price: '78.00',
      unitSize: '10,000 units',
    },
    [{ quantity: '2', lotNumber: '10123', expirationDate: '2027-05-31', locationId: bench.id }],
  );

  await seedDocuments(deps, adminActor, { antibodyTypeId: antibody.id, itemId: gfp.id, instanceId: gfp.instances[0]!.id, lot: 'GR3323' });

  const shop = await seedOrdersAndShop(deps, {
    admin: adminActor,
    member: { tokenId: 'demo', userId: member.id, organizationId: org.id, role: 'member' },
    legacyLabId: legacy.id,
    migratedLabId: migrated.id,
    types: { reagent: reagent.id, antibody: antibody.id, enzyme: enzyme.id },
  });

  const memberActor: Actor = { tokenId: 'demo', userId: member.id, organizationId: org.id, role: 'member' };
  const chemistry = await seedChemistry(deps, { admin: adminActor, member: memberActor, organizationId: org.id });

  const token = await createToken(deps.db, system, { userId: admin.id, organizationId: org.id, name: 'demo admin' });
  const memberToken = await createToken(deps.db, system, { userId: member.id, organizationId: org.id, name: 'demo member' });
  // Fulfilment is done by a service operator with a token of its own; the admin's token cannot ship.
  const operator = await createOperator(deps.db, system, {
    email: 'otto.operator@demo.labstock.test',
    firstName: 'Otto',
    lastName: 'Hahn',
  });
  const operatorToken = await createOperatorToken(deps.db, system, { operator: operator.id, name: 'demo operator' });
  return {
    organization_id: org.id,
    admin_user_id: admin.id,
    member_user_id: member.id,
    token: token.token,
    member_token: memberToken.token,
    operator_id: operator.id,
    operator_token: operatorToken.token,
    legacy_lab_id: legacy.id,
    migrated_lab_id: migrated.id,
    migrated_item_id: gfp.id,
    migrated_instance_id: withSecond.instances[0]!.id,
    legacy_item_id: legacyItem.id,
    type_id: antibody.id,
    ...shop,
    ...chemistry,
  };
}
