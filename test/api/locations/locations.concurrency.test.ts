// Location tree changes racing each other (issue 9, item 2). On PostgreSQL, without per-lab serialization and a
// unique index, crossed moves made a cycle, two fitting moves made eight levels and same-name creates or renames
// made duplicate siblings. Each race runs several rounds of real concurrent requests through the app; SQLite runs
// the same tests (its writers are serial, so there they check that the answers stay right).
import { describe, expect, it } from 'vitest';
import { MAX_LOCATION_DEPTH } from '../../../src/locations/rules.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const ROUNDS = 4;
const lab = () => h.a.migratedLab.id;
const token = () => h.a.admin.token;
let seq = 0;
const uniq = (name: string) => `${name} ${++seq}`;

const create = (name: string, parent_id: string | null = null) =>
  h.call(token(), { method: 'POST', url: '/locations', payload: { lab_id: lab(), parent_id, name } });
const patch = (id: string, payload: { name?: string; parent_id?: string | null }) =>
  h.call(token(), { method: 'PATCH', url: `/locations/${id}`, payload });

async function chain(prefix: string, n: number, parent: string | null = null): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await create(`${prefix}.${i + 1}`, ids.at(-1) ?? parent);
    expect(r.statusCode, r.body).toBe(201);
    ids.push(r.json().id);
  }
  return ids;
}

/** The stored tree, checked the way an older version could not: every chain reaches a root within seven levels. */
async function expectWholeTree(): Promise<void> {
  const rows = await h.deps.db.selectFrom('locations').select(['id', 'parent_id', 'name']).where('lab_id', '=', lab()).execute();
  const parent = new Map(rows.map((r) => [r.id, r.parent_id]));
  for (const r of rows) {
    let depth = 1;
    for (let p = r.parent_id; p !== null; p = parent.get(p) ?? null) {
      depth++;
      expect(depth, `location ${r.name} is in a cycle or too deep`).toBeLessThanOrEqual(MAX_LOCATION_DEPTH);
    }
  }
  const siblings = new Set<string>();
  for (const r of rows) {
    const key = `${r.parent_id ?? ''}/${r.name}`;
    expect(siblings.has(key), `two siblings named ${r.name}`).toBe(false);
    siblings.add(key);
  }
  const list = await h.call(token(), { method: 'GET', url: `/labs/${lab()}/locations` });
  expect(list.statusCode, list.body).toBe(200);
}

const statuses = (rs: { statusCode: number }[]) => rs.map((r) => r.statusCode).sort();

describe('concurrent location changes (one lab)', () => {
  it('crossed moves (A under C, C under A): one succeeds, the other is 409, no cycle', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [a] = await chain(uniq('A'), 1);
      const [c] = await chain(uniq('C'), 1);
      const rs = await Promise.all([patch(a!, { parent_id: c! }), patch(c!, { parent_id: a! })]);
      expect(statuses(rs), rs.map((r) => r.body).join('\n')).toEqual([200, 409]);
      expect(rs.find((r) => r.statusCode === 409)!.json().code).toBe('conflict');
    }
    await expectWholeTree();
  });

  it('two moves that each fit but together make eight levels: one is refused', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [w] = await chain(uniq('W'), 1); // a root of depth 1
      const x = await chain(uniq('X'), 4); // depth 4 at its bottom
      const y = await chain(uniq('Y'), 3); // height 3
      // X under W: 1 + 4 = 5 levels; Y under X's bottom: 4 + 3 = 7 levels; both: 8.
      const rs = await Promise.all([patch(x[0]!, { parent_id: w! }), patch(y[0]!, { parent_id: x[3]! })]);
      expect(statuses(rs), rs.map((r) => r.body).join('\n')).toEqual([200, 409]);
    }
    await expectWholeTree();
  });

  it('six creates of one name at the root: one 201, five 409', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const name = uniq('Same');
      const rs = await Promise.all(Array.from({ length: 6 }, () => create(name)));
      expect(statuses(rs), rs.map((r) => r.body).join('\n')).toEqual([201, 409, 409, 409, 409, 409]);
      const stored = await h.deps.db.selectFrom('locations').select('id').where('lab_id', '=', lab()).where('name', '=', name).execute();
      expect(stored).toHaveLength(1);
    }
    await expectWholeTree();
  });

  it('six creates of one name under one parent: one 201, five 409', async () => {
    const [parent] = await chain(uniq('Parent'), 1);
    for (let round = 0; round < ROUNDS; round++) {
      const rs = await Promise.all(Array.from({ length: 6 }, () => create('Shelf', parent!)));
      if (round === 0) expect(statuses(rs), rs.map((r) => r.body).join('\n')).toEqual([201, 409, 409, 409, 409, 409]);
      else expect(statuses(rs)).toEqual([409, 409, 409, 409, 409, 409]);
    }
    await expectWholeTree();
  });

  it('renames of two siblings to one name, and a move beside a rename: one succeeds', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [p] = await chain(uniq('Room'), 1);
      const [s1] = await chain(uniq('S'), 1, p!);
      const [s2] = await chain(uniq('S'), 1, p!);
      const name = uniq('Target');
      const renames = await Promise.all([patch(s1!, { name }), patch(s2!, { name })]);
      expect(statuses(renames), renames.map((r) => r.body).join('\n')).toEqual([200, 409]);

      // A location moving in beside a sibling being renamed to its name.
      const [elsewhere] = await chain(uniq('Elsewhere'), 1);
      const moverPrefix = uniq('Mover');
      const [mover] = await chain(moverPrefix, 1, elsewhere!);
      const moverName = `${moverPrefix}.1`;
      const [s3] = await chain(uniq('S'), 1, p!);
      const mixed = await Promise.all([patch(mover!, { parent_id: p! }), patch(s3!, { name: moverName })]);
      expect(statuses(mixed), mixed.map((r) => r.body).join('\n')).toEqual([200, 409]);
    }
    await expectWholeTree();
  });
});
