import { listWaiting, markControlled, witnessEntry } from '../controlled/service.js';
import { setItemHazards } from '../inventory/hazards.js';
import { createItem } from '../inventory/items.js';
import { adjustQuantity } from '../inventory/quantities.js';
import { updateApprovalSettings } from '../labs/approval-settings.js';
import { addMember, createLab } from '../labs/service.js';
import { putControlArea } from '../locations/control-areas.js';
import { createLocation } from '../locations/service.js';
import { createOrder } from '../order-requests/service.js';
import type { Actor } from '../shared/actor.js';
import type { ServiceDeps } from '../shared/deps.js';
import { pageOf } from '../shared/pagination.js';
import { createType } from '../types/service.js';

// The demo's chemistry lab (issue 26, docs/hazard-reports.md): reagents with their hazard statements, a
// flammable-liquids cabinet marked a control area and near its limit, an oxidizer on the shelf beside a solvent (so
// the segregation warning shows), and a controlled substance with a witnessed ledger. Built through the services, as
// the people would; the hazard statements are those of the vendors' safety data sheets named beside each.

export interface DemoChemistry {
  chemistry_lab_id: string;
  flammables_cabinet_id: string;
  controlled_item_id: string;
  /** A request awaiting approval that would take the cabinet over its limit (approving it warns with the figures). */
  over_limit_request_id: string;
}

interface Reagent {
  name: string;
  vendor: string;
  catalogNumber: string;
  casNumber: string;
  unitSize: string;
  codes: string[];
  at: 'cabinet' | 'shelf' | 'corrosives' | 'bench';
  bottles: number;
}

// Statements as in each product's SDS (section 2.2).
const REAGENTS: Reagent[] = [
  // Sigma-Aldrich 32221, ethanol absolute.
  {
    name: 'Ethanol absolute',
    vendor: 'Sigma-Aldrich',
    catalogNumber: '32221',
    casNumber: '64-17-5',
    unitSize: '2.5 L',
    codes: ['H225', 'H319'],
    at: 'cabinet',
    bottles: 4,
  },
  // Sigma-Aldrich 179124, acetone ACS reagent.
  {
    name: 'Acetone',
    vendor: 'Sigma-Aldrich',
    catalogNumber: '179124',
    casNumber: '67-64-1',
    unitSize: '2.5 L',
    codes: ['H225', 'H319', 'H336'],
    at: 'cabinet',
    bottles: 2,
  },
  // Fisher H/0200/17, hexane.
  {
    name: 'n-Hexane',
    vendor: 'Fisher',
    catalogNumber: 'H/0200/17',
    casNumber: '110-54-3',
    unitSize: '2.5 L',
    codes: ['H225', 'H304', 'H315', 'H336', 'H361f', 'H373', 'H411'],
    at: 'cabinet',
    bottles: 1,
  },
  // A solvent bottle on the open shelf, beside the permanganate: the segregation table flags the pair.
  {
    name: 'Acetone (wash bottle stock)',
    vendor: 'Sigma-Aldrich',
    catalogNumber: '179124',
    casNumber: '67-64-1',
    unitSize: '500 mL',
    codes: ['H225', 'H319', 'H336'],
    at: 'shelf',
    bottles: 1,
  },
  // Sigma-Aldrich 223468, potassium permanganate: an oxidizer.
  {
    name: 'Potassium permanganate',
    vendor: 'Sigma-Aldrich',
    catalogNumber: '223468',
    casNumber: '7722-64-7',
    unitSize: '500 g',
    codes: ['H272', 'H302', 'H314', 'H361d', 'H373', 'H410'],
    at: 'shelf',
    bottles: 1,
  },
  // Sigma-Aldrich 216763, hydrogen peroxide 30 %.
  {
    name: 'Hydrogen peroxide 30 %',
    vendor: 'Sigma-Aldrich',
    catalogNumber: '216763',
    casNumber: '7722-84-1',
    unitSize: '500 mL',
    codes: ['H302', 'H318', 'H412'],
    at: 'corrosives',
    bottles: 2,
  },
  // Sigma-Aldrich 258105, sulfuric acid 95–98 %.
  {
    name: 'Sulfuric acid 95–98 %',
    vendor: 'Sigma-Aldrich',
    catalogNumber: '258105',
    casNumber: '7664-93-9',
    unitSize: '2.5 L',
    codes: ['H290', 'H314'],
    at: 'corrosives',
    bottles: 1,
  },
  // Sigma-Aldrich S5881, sodium hydroxide pellets.
  {
    name: 'Sodium hydroxide pellets',
    vendor: 'Sigma-Aldrich',
    catalogNumber: 'S5881',
    casNumber: '1310-73-2',
    unitSize: '1 kg',
    codes: ['H290', 'H314'],
    at: 'corrosives',
    bottles: 2,
  },
  // Sigma-Aldrich 262714, sodium (sticks under mineral oil): water-reactive.
  {
    name: 'Sodium metal',
    vendor: 'Sigma-Aldrich',
    catalogNumber: '262714',
    casNumber: '7440-23-5',
    unitSize: '25 g',
    codes: ['H260', 'H314'],
    at: 'bench',
    bottles: 1,
  },
  // A size no one can read as an amount: the report lists it as unknown.
  {
    name: 'Dichloromethane (aliquots)',
    vendor: 'Fisher',
    catalogNumber: 'D/1852/17',
    casNumber: '75-09-2',
    unitSize: 'assorted vials',
    codes: ['H315', 'H319', 'H336', 'H351'],
    at: 'bench',
    bottles: 1,
  },
];

export async function seedChemistry(
  deps: ServiceDeps,
  people: { admin: Actor; member: Actor; organizationId: string },
): Promise<DemoChemistry> {
  const { admin, member } = people;
  const lab = await createLab(deps.db, admin, {
    organizationId: people.organizationId,
    name: 'Organic Chemistry Lab',
    usesInstances: true,
  });
  await addMember(deps.db, admin, lab.id, member.userId);
  const reagent = await createType(deps, admin, { labId: lab.id, name: 'Reagent' });

  const building = await createLocation(deps.db, admin, { labId: lab.id, parentId: null, name: 'Chemistry Building' });
  const room = await createLocation(deps.db, admin, { labId: lab.id, parentId: building.id, name: 'Room 3.12' });
  const places = {
    cabinet: await createLocation(deps.db, admin, { labId: lab.id, parentId: room.id, name: 'Flammables cabinet' }),
    shelf: await createLocation(deps.db, admin, { labId: lab.id, parentId: room.id, name: 'Open shelf A' }),
    corrosives: await createLocation(deps.db, admin, { labId: lab.id, parentId: room.id, name: 'Corrosives cabinet' }),
    bench: await createLocation(deps.db, admin, { labId: lab.id, parentId: room.id, name: 'Fume hood 2' }),
  };
  // The cabinet is a control area with a limit the lab set below the fire code's (20 L of flammable liquids IB and
  // IC): its 20 L of solvents (4 × 2.5 L ethanol, 2 × 2.5 L acetone, 2.5 L hexane = 17.5 L) is near it. Marked
  // before the bottles are stored, as a lab would, so the limit is checked as they arrive (warn, the default).
  await putControlArea(deps.db, admin, places.cabinet.id, {
    sprinklered: false,
    cabinets: true,
    limits: [{ category: 'flammable-liquid-ib-ic', state: 'liquid', limit: '20' }],
  });

  for (const r of REAGENTS) {
    const item = await createItem(
      deps,
      admin,
      {
        labId: lab.id,
        name: r.name,
        typeId: reagent.id,
        vendor: r.vendor,
        catalogNumber: r.catalogNumber,
        casNumber: r.casNumber,
        unitSize: r.unitSize,
      },
      Array.from({ length: r.bottles }, (_, i) => ({
        quantity: '1',
        lotNumber: `${r.catalogNumber.replace(/\W/g, '').slice(0, 6)}-${i + 1}`,
        expirationDate: '2028-06-30',
        locationId: places[r.at].id,
      })),
    );
    await setItemHazards(deps, admin, item.id, { hazard_statements: r.codes });
  }

  // A controlled substance with its ledger: received as a stock, marked controlled (Schedule III), a use recorded by
  // a member and witnessed by the admin, another use still waiting for its witness.
  const ketamine = await createItem(
    deps,
    admin,
    {
      labId: lab.id,
      name: 'Ketamine hydrochloride',
      typeId: reagent.id,
      vendor: 'Sigma-Aldrich',
      catalogNumber: 'K2753',
      casNumber: '1867-66-9',
      unitSize: '1 g',
    },
    [{ quantity: '5', lotNumber: 'KET-0425', expirationDate: '2028-12-31', locationId: places.bench.id }],
  );
  await markControlled(deps, admin, ketamine.id, { schedule: 'Schedule III' });
  const instanceId = ketamine.instances[0]!.id;
  await adjustQuantity(deps, member, ketamine.id, { delta: '-0.25', note: 'Anaesthesia, protocol 2026-14', instance_id: instanceId });
  // Each entry so far is witnessed by the other person (no one witnesses their own); the second use waits.
  for (const entry of (await listWaiting(deps, admin, lab.id, pageOf({ per_page: 100 }))).entries) {
    await witnessEntry(deps, entry.recorded_by.id === admin.userId ? member : admin, entry.id);
  }
  await adjustQuantity(deps, member, ketamine.id, { delta: '-0.5', note: 'Anaesthesia, protocol 2026-15', instance_id: instanceId });

  // A request for two more bottles of the cabinet's ethanol, waiting for approval (the lab approves every request):
  // approving it would bring 5 L more into the cabinet, 22.5 L of its 20 L. The approval's check finds the cabinet
  // as the place the lab keeps the product (same vendor and catalog number, src/inventory/placement-target.ts).
  await updateApprovalSettings(deps.db, admin, lab.id, { rule: 'all' });
  const overLimit = await createOrder(deps, member, {
    lab_id: lab.id,
    type_id: reagent.id,
    name: 'Ethanol absolute',
    vendor_name: 'Sigma-Aldrich',
    catalog_number: '32221',
    price: { amount: '6490', currency: 'USD' },
    quantity: 2,
  });

  return {
    chemistry_lab_id: lab.id,
    flammables_cabinet_id: places.cabinet.id,
    controlled_item_id: ketamine.id,
    over_limit_request_id: overLimit.id,
  };
}
