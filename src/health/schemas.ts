import { Type } from 'typebox';

// The health answer (docs/product.md §1): 200 {"status":"ok","database":"ok"}, 503 with "database":"unreachable".

export const Health = Type.Object({ status: Type.String(), database: Type.String() }, { $id: 'Health', additionalProperties: false });
