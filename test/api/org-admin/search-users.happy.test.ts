import { describe, expect, it } from 'vitest';
import { createUser } from '../../../src/accounts/service.js';
import { systemActor } from '../../../src/shared/actor.js';
import { linkPages } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

// GET /organization/users?q= (docs/api.md): the people pickers search the server. Org A has Ada AdminA,
// Max MemberA and Olga OutsiderA (test/helpers/fixtures.ts).

const h = useHarness({}, async (h) => {
  const people = [
    ['Per%cent', 'Sign', 'percent@example.org'],
    ['Una', 'Derscore', 'under_score@example.org'],
    ['Unx', 'Derscore', 'underxscore@example.org'],
  ] as const;
  for (const [firstName, lastName, email] of people) {
    await createUser(h.deps.db, systemActor('cli'), { organizationId: h.a.orgId, email, firstName, lastName, role: 'member' });
  }
});

const emails = async (query: string) => {
  const res = await h.call(h.a.admin.token, { method: 'GET', url: `/organization/users${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().map((u: { email: string }) => u.email);
};

describe('GET /organization/users?q= (happy)', () => {
  it('finds text inside the first name, the last name, "first last" or the e-mail, whatever its case', async () => {
    expect(await emails('?q=LG')).toEqual(['outsider-a@example.org']);
    expect(await emails('?q=embera')).toEqual(['member-a@example.org']);
    expect(await emails(`?q=${encodeURIComponent('x memb')}`)).toEqual(['member-a@example.org']);
    expect(await emails('?q=IN-A@EXAMPLE')).toEqual(['admin-a@example.org']);
  });

  it('trims the text; empty or blank filters nothing', async () => {
    const all = await emails('');
    expect(all).toHaveLength(6);
    expect(await emails('?q=')).toEqual(all);
    expect(await emails(`?q=${encodeURIComponent('   ')}`)).toEqual(all);
    expect(await emails(`?q=${encodeURIComponent('  ada ')}`)).toEqual(['admin-a@example.org']);
  });

  it('% and _ match only themselves', async () => {
    expect(await emails(`?q=${encodeURIComponent('%')}`)).toEqual(['percent@example.org']);
    expect(await emails('?q=r_s')).toEqual(['under_score@example.org']);
  });

  it('pages the filtered list: X-Total-Count and Link count only the matches and keep q', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 2; page += 1) {
      const res = await h.call(h.a.admin.token, { method: 'GET', url: `/organization/users?q=DERSC&per_page=1&page=${page}` });
      expect(res.headers['x-total-count']).toBe('2');
      seen.push(...res.json().map((u: { email: string }) => u.email));
      const links = linkPages(res.headers.link);
      expect(links.last?.page).toBe(2);
      expect(links.first?.url.searchParams.get('q')).toBe('DERSC');
    }
    expect(seen).toEqual(['under_score@example.org', 'underxscore@example.org']);
  });

  it('an invited person not yet joined is found by the e-mail, and counted only when found', async () => {
    // member-B is an account of organization B: invited here, listed under the invitation until they accept.
    const invite = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/organization/users',
      payload: { email: 'member-b@example.org' },
    });
    expect(invite.statusCode, invite.body).toBe(201);
    const found = await h.call(h.a.admin.token, { method: 'GET', url: '/organization/users?q=MEMBER-' });
    expect(found.json().map((u: { email: string }) => u.email)).toEqual(['member-a@example.org', 'member-b@example.org']);
    expect(found.headers['x-total-count']).toBe('2');
    const notFound = await h.call(h.a.admin.token, { method: 'GET', url: '/organization/users?q=member-a' });
    expect(notFound.json().map((u: { email: string }) => u.email)).toEqual(['member-a@example.org']);
    expect(notFound.headers['x-total-count']).toBe('1');
  });
});
