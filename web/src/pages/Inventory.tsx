import { Anchor, Button, Group, Pagination, Select, Stack, Table, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigation, useSearchParams } from 'react-router';
import { api, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import { InventoryFilters, isSort, type SortValue } from '../components/InventoryFilters';

const PER_PAGE = 25;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The lab's items: a lab switcher, the words, the filters, the order and a page of the table. All of it lives in the
 * URL's query string, so a link reproduces the view and back/forward step through the filters.
 */
export function InventoryPage() {
  const [params, setParams] = useSearchParams();
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const labId = params.get('lab') ?? '';
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const urlQ = params.get('q') ?? '';
  const filters = {
    type: params.get('type') ?? '',
    location: params.get('location') ?? '',
    expiring: DATE.test(params.get('expiring') ?? '') ? (params.get('expiring') as string) : '',
    below: params.get('below') === 'true',
    // A value the API does not know would be a 422: an edited link falls back to the default order.
    sort: isSort(params.get('sort')) ? (params.get('sort') as SortValue) : ('' as const),
  };
  const [text, setText] = useState(urlQ);
  const [q] = useDebouncedValue(text.trim(), 250);

  const labs = useQuery({ queryKey: ['labs'], queryFn: () => unwrap(api.GET('/labs', { params: { query: { per_page: 100 } } })) });
  const lab = labs.data?.find((l) => l.id === labId);

  // Typing replaces the current entry (one per word would make back useless); a filter adds one.
  const update = (changes: Record<string, string | null>, replace = false) =>
    setParams(
      (current) => {
        const nextParams = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) nextParams.set(key, value);
          else nextParams.delete(key);
        }
        if (!('page' in changes)) nextParams.delete('page');
        return nextParams;
      },
      { replace },
    );

  // A link clicked meanwhile: the router is already on its way elsewhere (loading the next page's chunk,
  // web/src/routes.tsx, while this page is still rendered and the address unchanged); writing to the address now
  // would cancel that navigation and keep the person here.
  const leaving = navigation.state !== 'idle' || !window.location.pathname.endsWith(pathname);
  // The first lab is chosen until the person picks one.
  const firstLab = labs.data?.[0]?.id;
  useEffect(() => {
    if (!leaving && !labId && firstLab) update({ lab: firstLab }, true);
  });
  // The box follows the URL when back/forward change it, and the URL follows the box when the person types.
  const written = useRef(urlQ);
  useEffect(() => {
    if (urlQ !== written.current) {
      written.current = urlQ;
      setText(urlQ);
    }
  }, [urlQ]);
  useEffect(() => {
    // A link clicked within the debounce (`leaving`, above).
    if (leaving) return;
    if (q !== written.current) {
      written.current = q;
      update({ q: q || null }, true);
    }
  });

  const query = {
    lab_id: labId,
    ...(urlQ ? { q: urlQ } : {}),
    ...(filters.type ? { type_id: filters.type } : {}),
    ...(filters.location ? { location_id: filters.location } : {}),
    ...(filters.expiring ? { expiring_before: filters.expiring } : {}),
    ...(filters.below ? { below_minimum: true } : {}),
    ...(filters.sort ? { sort: filters.sort } : {}),
    page,
    per_page: PER_PAGE,
  };
  const items = useQuery({
    queryKey: ['inventory-items', query],
    enabled: labId !== '',
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const call = api.GET('/inventory-items', { params: { query } });
      const rows = await unwrap(call);
      const { headers } = (await call).response;
      // A large search counts up to 1,000 matches and then says "at least" by leaving out Link's `last`
      // (docs/decisions/0014-bounded-search-counts.md).
      const link = headers.get('link');
      const atLeast = Boolean(link?.includes('rel="next"') && !link.includes('rel="last"'));
      return { rows, total: Number(headers.get('x-total-count') ?? rows.length), atLeast };
    },
  });
  const filtered = Boolean(filters.type || filters.location || filters.expiring || filters.below);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Inventory</Title>
        {labId && (
          <Button component={Link} to={`/inventory/items/new?lab=${labId}`}>
            New item
          </Button>
        )}
      </Group>
      {labs.isError && <ErrorNotice error={labs.error} />}
      <Group align="end" wrap="wrap">
        <Select
          label="Lab"
          data={(labs.data ?? []).map((l) => ({ value: l.id, label: l.name }))}
          value={labId || null}
          onChange={(value) => update({ lab: value, type: null, location: null })}
          allowDeselect={false}
          w={260}
        />
        <TextInput
          label="Search"
          placeholder="Name, CAS, catalog or lot number"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={320}
        />
      </Group>
      {labId && <InventoryFilters labId={labId} usesInstances={lab?.uses_instances ?? false} values={filters} onChange={update} />}
      {items.isError && <ErrorNotice error={items.error} />}
      {items.isPending && labId !== '' && <Loading label="Loading items" />}
      {labs.data?.length === 0 && <Text>You belong to no lab yet: ask an organization admin to add you to one.</Text>}
      {items.data && items.data.rows.length === 0 && (
        <Text data-testid="no-items">
          {urlQ
            ? `Nothing matches “${urlQ}”${filtered ? ' with these filters' : ''}.`
            : filtered
              ? 'No item matches these filters.'
              : 'This lab holds no items yet.'}
        </Text>
      )}
      {items.data && items.data.rows.length > 0 && (
        <>
          <Table.ScrollContainer minWidth={600}>
            <Table striped highlightOnHover aria-label="Items" data-testid="items-table">
              <Table.Thead>
                <Table.Tr>
                  <SortHeader label="Name" column="name" sort={filters.sort} onSort={(sort) => update({ sort })} />
                  <Table.Th>Vendor</Table.Th>
                  <Table.Th>Catalog no.</Table.Th>
                  <Table.Th>Quantity</Table.Th>
                  <SortHeader label="Expires" column="expiration_date" sort={filters.sort} onSort={(sort) => update({ sort })} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.data.rows.map((item) => (
                  <Table.Tr key={item.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/inventory/items/${item.id}`}>
                        {item.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{item.vendor}</Table.Td>
                    <Table.Td>{item.catalog_number}</Table.Td>
                    <Table.Td>{item.quantity}</Table.Td>
                    <Table.Td>{soonestExpiry(item)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between">
            <Text size="sm" c="dimmed" data-testid="items-total">
              {items.data.atLeast
                ? `more than ${items.data.total.toLocaleString('en')} items`
                : `${items.data.total} item${items.data.total === 1 ? '' : 's'}`}
            </Text>
            <Pagination
              // Past a bounded count there is always one more page to go to.
              total={Math.max(1, Math.ceil(items.data.total / PER_PAGE) + (items.data.atLeast ? 1 : 0), page)}
              value={page}
              onChange={(n) => update({ page: n === 1 ? null : String(n) })}
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            />
          </Group>
        </>
      )}
    </Stack>
  );
}

/** A column header that orders the table by it: ascending first, then each click reverses it. */
function SortHeader(props: { label: string; column: string; sort: string; onSort: (sort: string) => void }) {
  const ascending = props.sort === props.column;
  const descending = props.sort === `-${props.column}`;
  const arrow: ReactNode = ascending ? ' ↑' : descending ? ' ↓' : '';
  return (
    <Table.Th aria-sort={ascending ? 'ascending' : descending ? 'descending' : 'none'}>
      <UnstyledButton
        fw={700}
        fz="sm"
        onClick={() => props.onSort(ascending ? `-${props.column}` : props.column)}
        aria-label={`${props.label}, sort ${ascending ? 'descending' : 'ascending'}`}
      >
        {props.label}
        <span aria-hidden="true">{arrow}</span>
      </UnstyledButton>
    </Table.Th>
  );
}

function soonestExpiry(item: { expiration_date: string | null; instances: { expiration_date: string | null }[] }): string {
  const dates = [item.expiration_date, ...item.instances.map((i) => i.expiration_date)].filter((d): d is string => !!d).sort();
  return dates[0] ?? '';
}
