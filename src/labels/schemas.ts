import { type Static, Type } from 'typebox';
import { DateTime, NUuid, Uuid } from '../shared/schemas.js';
import { LAYOUT_NAMES } from './layouts.js';
import { CODE_ALPHABET, CODE_LENGTH } from './rules.js';

// Label codes and label sheets (docs/labels.md): their own resources, never fields on the contract's item.

const example = {
  code: 'K7QX2M9RTA',
  kind: 'instance',
  lab_id: '0190a0e0-0000-7000-8000-000000000002',
  item_id: '0190a0e0-0000-7000-8000-000000000010',
  instance_id: '0190a0e0-0000-7000-8000-000000000011',
  location_id: '0190a0e0-0000-7000-8000-000000000012',
  title: 'Tris base, 1 kg',
  lines: ['Lot SLCD1234  Exp 2027-03-31', 'Building A / Room 101 / Shelf 2', 'Protein Chemistry Lab'],
  label: 'Tris base, 1 kg · Lot SLCD1234  Exp 2027-03-31 · Building A / Room 101 / Shelf 2 · Protein Chemistry Lab',
  app_path: '/app/inventory/items/0190a0e0-0000-7000-8000-000000000010?instance=0190a0e0-0000-7000-8000-000000000011',
  label_url: 'https://labstock.example.org/app/c/K7QX2M9RTA',
  archived: false,
};

export const LabelCode = Type.Object(
  {
    code: Type.String({ description: `${CODE_LENGTH} characters of ${CODE_ALPHABET}: random, unique in the installation, never reused.` }),
    kind: Type.Union([Type.Literal('instance'), Type.Literal('location'), Type.Literal('item')], {
      description: 'A container (instance), a location, or an item of a lab that does not use instances.',
    }),
    lab_id: Uuid,
    item_id: { ...NUuid, description: "The item (an instance's item, or the item itself); null for a location." },
    instance_id: NUuid,
    location_id: { ...NUuid, description: "A location's own id, or where the instance is stored." },
    title: Type.String({ description: "The label's first line: the item's or the location's name." }),
    lines: Type.Array(Type.String(), { description: 'The rest of the human-readable text: lot and expiry, location path, lab.' }),
    label: Type.String({ description: 'title and lines in one line.' }),
    app_path: Type.String({ description: "The thing's page in the web application." }),
    label_url: Type.String({ format: 'uri', description: 'What a label encodes: APP_URL/app/c/{code}, which opens the page.' }),
    archived: Type.Boolean({ description: 'An archived instance keeps its code.' }),
  },
  { $id: 'LabelCode', title: 'LabelCode', additionalProperties: false, examples: [example] },
);
export type LabelCode = Static<typeof LabelCode>;

export const CodesQuery = Type.Object(
  {
    instance_id: Type.Optional(Uuid),
    location_id: Type.Optional(Uuid),
    item_id: Type.Optional({ ...Uuid, description: "An item's own code (a legacy lab) and those of its containers on the shelf." }),
  },
  { additionalProperties: false },
);

const Ids = (what: string) => Type.Optional(Type.Array(Uuid, { maxItems: 3000, description: what }));

export const LabelsBody = Type.Object(
  {
    format: Type.Union([Type.Literal('pdf'), Type.Literal('zpl')], { description: 'A PDF of label pages, or ZPL II for Zebra printers.' }),
    layout: Type.Union(
      LAYOUT_NAMES.map((n) => Type.Literal(n)),
      { description: 'The label stock (GET /labels/layouts).' },
    ),
    instance_ids: Ids('Containers.'),
    item_ids: Ids('Items: a legacy item itself, or every container of it on the shelf.'),
    location_ids: Ids("Locations' own labels."),
    stored_in_location_id: Type.Optional({ ...Uuid, description: 'Every container on the shelf stored at this location.' }),
    include_sublocations: Type.Optional(Type.Boolean({ description: 'With stored_in_location_id: and below it.' })),
    received_since: Type.Optional({ ...DateTime, description: 'Every container on the shelf that arrived since then ("received today").' }),
    lab_id: Type.Optional({ ...Uuid, description: 'With received_since: in this lab only.' }),
    skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 300, description: 'Labels to leave blank first on a part-used sheet.' })),
  },
  {
    additionalProperties: false,
    examples: [{ format: 'pdf', layout: 'sheet-30', instance_ids: ['0190a0e0-0000-7000-8000-000000000011'] }],
  },
);
export type LabelsBody = Static<typeof LabelsBody>;

export const LabelLayout = Type.Object(
  {
    name: Type.String(),
    title: Type.String(),
    description: Type.String(),
    labels_per_page: Type.Integer(),
    width_mm: Type.Number({ description: "One label's width." }),
    height_mm: Type.Number({ description: "One label's height." }),
  },
  { $id: 'LabelLayout', title: 'LabelLayout', additionalProperties: false },
);
