import { createOrganization, createToken, createUser } from '../accounts/service.js';
import { upsertProducts } from '../catalogue/repository.js';
import { addInstance } from '../inventory/instances.js';
import { createItem } from '../inventory/items.js';
import { addMember, createLab } from '../labs/service.js';
import { createLocation } from '../locations/service.js';
import { createOperator, createOperatorToken } from '../operators/service.js';
import { findOrder } from '../order-requests/repository.js';
import { createOrder, transitionIn } from '../order-requests/service.js';
import type { Actor } from '../shared/actor.js';
import type { OrderStatus } from '../shared/db/schema.js';
import type { ServiceDeps } from '../shared/deps.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';
import { checkout } from '../shop/service.js';
import { createType } from '../types/service.js';

export interface DemoResult {
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
  order_request_ids: Record<string, string>;
  vendor_product_ids: string[];
  /** A shop order placed by the member, waiting for the operator to ship it. */
  sales_order_id: string;
  sales_order_item_id: string;
}

/**
 * The demo organization, built through the same services the API uses (so its events are in the outbox too):
 * a legacy lab and a migrated lab with a five-level location tree, items, instances, order requests in every
 * state, and a small shop catalogue.
 */
export async function seedDemo(deps: ServiceDeps): Promise<DemoResult> {
  const org = await createOrganization(deps.db, { name: 'Demo University' });
  const admin = await createUser(deps.db, {
    organizationId: org.id,
    email: 'ada.admin@demo.labstock.test',
    firstName: 'Ada',
    lastName: 'Lovelace',
    role: 'admin',
  });
  const member = await createUser(deps.db, {
    organizationId: org.id,
    email: 'max.member@demo.labstock.test',
    firstName: 'Max',
    lastName: 'Planck',
    role: 'member',
  });

  const legacy = await createLab(deps.db, { organizationId: org.id, name: 'Chemistry Teaching Lab' });
  const migrated = await createLab(deps.db, { organizationId: org.id, name: 'Molecular Biology Lab', usesInstances: true });
  for (const lab of [legacy, migrated]) await addMember(deps.db, lab.id, member.id);

  const reagent = await createType(deps, { labId: legacy.id, name: 'Reagent' });
  await createType(deps, { labId: legacy.id, name: 'Glassware' });
  const antibody = await createType(deps, { labId: migrated.id, name: 'Antibody' });
  const enzyme = await createType(deps, { labId: migrated.id, name: 'Enzyme' });

  const legacyItem = await createItem(deps, admin.id, {
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
  await createItem(deps, admin.id, {
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
    const loc: { id: string } = await createLocation(deps.db, { labId: migrated.id, parentId: parent, name });
    chain.push(loc.id);
    parent = loc.id;
  }
  const bench = await createLocation(deps.db, { labId: migrated.id, parentId: chain[2]!, name: 'Bench 4' });

  const gfp = await createItem(
    deps,
    admin.id,
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
  const withSecond = await addInstance(deps, admin.id, gfp.id, {
    quantity: '1',
    lotNumber: 'GR4410',
    expirationDate: '2028-01-31',
    locationId: chain[3]!,
  });
  await createItem(
    deps,
    admin.id,
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

  const now = nowIso();
  const catalogue = [
    {
      item_name: 'Phusion High-Fidelity DNA Polymerase',
      catalog_number: 'M0530S',
      vendor_name: 'New England Biolabs',
      unit_name: 'units',
      unit_symbol: 'U',
      unit_amount: '100',
      price_amount: '27900',
      currency: 'USD',
    },
    {
      item_name: 'Falcon 50 mL conical tubes',
      catalog_number: '352070',
      vendor_name: 'Corning',
      unit_name: 'pieces',
      unit_symbol: 'pcs',
      unit_amount: '500',
      price_amount: '24850',
      currency: 'USD',
    },
    {
      item_name: 'Agarose, molecular biology grade',
      catalog_number: 'A9539',
      vendor_name: 'Sigma-Aldrich',
      unit_name: 'grams',
      unit_symbol: 'g',
      unit_amount: '100',
      price_amount: '15600',
      currency: 'USD',
    },
  ];
  await upsertProducts(deps.db, catalogue, now, newId);
  const productIds: string[] = [];
  for (const p of catalogue) {
    const row = await deps.db
      .selectFrom('vendor_products')
      .select('id')
      .where('vendor_name', '=', p.vendor_name)
      .where('catalog_number', '=', p.catalog_number)
      .executeTakeFirstOrThrow();
    productIds.push(row.id);
  }

  const actor: Actor = { tokenId: 'demo', userId: member.id, organizationId: org.id, role: 'member' };
  const orders: Record<string, string> = {};
  const plans: {
    name: string;
    vendor: string;
    catalog: string;
    lab: string;
    type: string;
    amount: string;
    qty: number;
    path: OrderStatus[];
    product?: string;
  }[] = [
    {
      name: 'Anti-GFP antibody',
      vendor: 'Abcam',
      catalog: 'ab290',
      lab: migrated.id,
      type: antibody.id,
      amount: '41500',
      qty: 1,
      path: [],
    },
    {
      name: 'Phusion High-Fidelity DNA Polymerase',
      vendor: 'New England Biolabs',
      catalog: 'M0530S',
      lab: migrated.id,
      type: enzyme.id,
      amount: '27900',
      qty: 2,
      path: ['APPROVED'],
      product: productIds[0],
    },
    {
      name: 'Ethanol absolute',
      vendor: 'Sigma-Aldrich',
      catalog: 'E7023',
      lab: legacy.id,
      type: reagent.id,
      amount: '4250',
      qty: 4,
      path: ['APPROVED', 'ORDERED'],
    },
    {
      name: 'Agarose, molecular biology grade',
      vendor: 'Sigma-Aldrich',
      catalog: 'A9539',
      lab: migrated.id,
      type: enzyme.id,
      amount: '15600',
      qty: 1,
      path: ['ORDERED', 'BACKORDERED'],
      product: productIds[2],
    },
    {
      name: 'EcoRI-HF',
      vendor: 'New England Biolabs',
      catalog: 'R3101S',
      lab: migrated.id,
      type: enzyme.id,
      amount: '7800',
      qty: 3,
      path: ['APPROVED', 'ORDERED', 'RECEIVED'],
    },
    { name: 'Acetone', vendor: 'Fisher', catalog: 'A18-4', lab: legacy.id, type: reagent.id, amount: '6120', qty: 1, path: ['CANCELLED'] },
  ];
  for (const plan of plans) {
    const order = await createOrder(deps, actor, {
      lab_id: plan.lab,
      type_id: plan.type,
      name: plan.name,
      vendor_name: plan.vendor,
      catalog_number: plan.catalog,
      price: { amount: plan.amount, currency: 'USD' },
      quantity: plan.qty,
      ...(plan.product ? { vendor_product_id: plan.product } : {}),
    });
    for (const status of plan.path) {
      await deps.db.transaction().execute(async (trx) => {
        await transitionIn(trx, deps, admin.id, (await findOrder(trx, order.id))!, status);
      });
    }
    orders[plan.path.at(-1) ?? 'CREATED'] = order.id;
  }

  const tubes = await createOrder(deps, actor, {
    lab_id: migrated.id,
    type_id: enzyme.id,
    name: 'Falcon 50 mL conical tubes',
    vendor_name: 'Corning',
    catalog_number: '352070',
    price: { amount: '24850', currency: 'USD' },
    quantity: 2,
    vendor_product_id: productIds[1]!,
  });
  const sale = await checkout(deps, actor, {
    lab_id: migrated.id,
    order_request_ids: [tubes.id],
    payment_method: 'PURCHASE_ORDER',
    purchase_order_number: 'PO-DEMO-1',
  });

  const token = await createToken(deps.db, { userId: admin.id, organizationId: org.id, name: 'demo admin' });
  const memberToken = await createToken(deps.db, { userId: member.id, organizationId: org.id, name: 'demo member' });
  // Fulfilment is done by a service operator with a token of its own; the admin's token cannot ship.
  const operator = await createOperator(deps.db, { email: 'otto.operator@demo.labstock.test', firstName: 'Otto', lastName: 'Hahn' });
  const operatorToken = await createOperatorToken(deps.db, { operator: operator.id, name: 'demo operator' });
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
    order_request_ids: orders,
    vendor_product_ids: productIds,
    sales_order_id: sale.id,
    sales_order_item_id: sale.items[0]!.id,
  };
}
