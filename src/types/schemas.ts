import { type Static, Type } from 'typebox';
import { Lab } from '../labs/schemas.js';
import { ref, Uuid } from '../shared/schemas.js';

// The inventory type exactly as the contract shows it: one declaration validates, serializes and documents (src/shared/schemas.ts).

export const TypeRef = Type.Object({ id: Uuid, name: Type.String() }, { $id: 'TypeRef', additionalProperties: false });
export type TypeRef = Static<typeof TypeRef>;

export const InventoryType = Type.Object(
  { id: Uuid, name: Type.String(), lab: ref(Lab) },
  { $id: 'InventoryType', title: 'InventoryType', additionalProperties: false },
);
export type InventoryType = Static<typeof InventoryType>;

/** A type with what uses it (GET /labs/{id}/type-usage): a type in use cannot be deleted. */
export const TypeUsage = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    items: Type.Integer({ description: 'Inventory items of this type.' }),
    order_requests: Type.Integer({ description: 'Order requests of this type, whatever their status.' }),
  },
  { $id: 'TypeUsage', title: 'TypeUsage', additionalProperties: false },
);
export type TypeUsage = Static<typeof TypeUsage>;

// The request bodies (routes.ts).
const Name = Type.String({ minLength: 1, maxLength: 200 });

export const CreateTypeBody = Type.Object({ lab_id: Uuid, name: Name }, { additionalProperties: false });
export type CreateTypeBody = Static<typeof CreateTypeBody>;

export const RenameTypeBody = Type.Object({ name: Name }, { additionalProperties: false });
export type RenameTypeBody = Static<typeof RenameTypeBody>;
