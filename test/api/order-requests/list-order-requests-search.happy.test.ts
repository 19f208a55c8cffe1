import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { createOrder, orderBody, parseLink } from './_helpers.js';

// GET /order-requests' additions for the application's list (docs/api.md): q, requested_by and sort.
const h = useHarness();

const byAdmin: string[] = [];
const byMember: string[] = [];
beforeAll(async () => {
  const names = ['Dimethyl sulfoxide', 'Ethanol 70%', 'Tris_HCl buffer'];
  for (const name of names) byAdmin.push((await createOrder(h, h.a.admin.token, orderBody(h.a.legacyLab, { name }))).id);
  byMember.push((await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab, { name: 'Pipette tips', vendor_name: 'Eppendorf' }))).id);
  byMember.push((await createOrder(h, h.a.member.token, orderBody(h.a.migratedLab, { name: 'Gloves', catalog_number: 'GLV-ETH-9' }))).id);
});

const list = async (query: string, token = h.a.admin.token) => {
  const res = await h.call(token, { method: 'GET', url: `/order-requests${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return { ids: res.json().map((o: { id: string }) => o.id) as string[], res };
};

describe('GET /order-requests?q=', () => {
  it('matches inside words of the name, vendor and catalog number, whatever the case', async () => {
    expect((await list('?q=ETHYL')).ids).toEqual([byAdmin[0]]);
    expect((await list('?q=eth')).ids).toEqual([byAdmin[0], byAdmin[1], byMember[1]]);
    expect((await list('?q=ppendo')).ids).toEqual([byMember[0]]);
  });

  it('% and _ are plain characters, not wildcards', async () => {
    expect((await list('?q=70%25')).ids).toEqual([byAdmin[1]]);
    expect((await list('?q=s_H')).ids).toEqual([byAdmin[2]]);
    expect((await list('?q=%25%25')).ids).toEqual([]);
  });

  it('blank filters nothing; the count and Link keep the search', async () => {
    expect((await list('?q=%20%20')).ids).toHaveLength(5);
    const { res } = await list('?q=eth&per_page=2');
    expect(res.headers['x-total-count']).toBe('3');
    expect(parseLink(res.headers.link).next!.searchParams.get('q')).toBe('eth');
  });
});

describe('GET /order-requests?requested_by=', () => {
  it('me is the caller', async () => {
    expect((await list('?requested_by=me', h.a.member.token)).ids).toEqual(byMember);
    expect((await list('?requested_by=me')).ids).toEqual(byAdmin);
  });

  it("a user's id gives that person's requests, combined with the other filters", async () => {
    expect((await list(`?requested_by=${h.a.member.id}`)).ids).toEqual(byMember);
    expect((await list(`?requested_by=${h.a.member.id}&lab_id=${h.a.migratedLab.id}`)).ids).toEqual([byMember[1]]);
    expect((await list(`?requested_by=${h.a.member.id}&q=glove&status=CREATED`)).ids).toEqual([byMember[1]]);
  });
});

describe('GET /order-requests?sort=', () => {
  it('-requested_at is newest first, the exact reverse of requested_at and of the default', async () => {
    const all = [...byAdmin.slice(0, 3), ...byMember];
    expect((await list('')).ids).toEqual(all);
    expect((await list('?sort=requested_at')).ids).toEqual(all);
    expect((await list('?sort=-requested_at')).ids).toEqual([...all].reverse());
  });

  it('pages through newest first, each request once', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) seen.push(...(await list(`?sort=-requested_at&per_page=2&page=${page}`)).ids);
    expect(seen).toEqual([...byAdmin, ...byMember].reverse());
    const { res } = await list('?sort=-requested_at&per_page=2');
    expect(parseLink(res.headers.link).next!.searchParams.get('sort')).toBe('-requested_at');
  });
});
