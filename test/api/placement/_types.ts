// A type of the scenario's lab with hazards of its own (docs/safety.md): a new item of it has them until it has its own.
import { randomUUID } from 'node:crypto';
import { setHazardsIn } from '../../../src/hazards/repository.js';
import { createType } from '../../../src/types/service.js';
import type { Harness } from '../../helpers/harness.js';

export async function hazardousType(h: Harness, labId: string, name: string, codes: string[]): Promise<string> {
  const type = await createType(h.deps, h.a.admin.actor, { labId, name: `${name} ${randomUUID().slice(0, 8)}` });
  await setHazardsIn(h.deps.db, { kind: 'type', id: type.id }, { labId, userId: h.a.admin.id, now: new Date().toISOString(), codes });
  return type.id;
}

/** Flammable liquid 2 (H225), as acetone; an oxidizing liquid 1 (H271), as concentrated nitric acid or peroxide. */
export const flammableType = (h: Harness, labId: string) => hazardousType(h, labId, 'Solvents', ['H225']);
export const oxidizerType = (h: Harness, labId: string) => hazardousType(h, labId, 'Oxidizers', ['H271']);
