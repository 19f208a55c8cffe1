import { Button, Group, Pagination, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigation, useSearchParams } from 'react-router';
import { api, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import { InventoryFilters, isSort, type SortValue } from '../components/InventoryFilters';
import { InventoryRows } from '../components/InventoryRows';
import { useLabs } from '../data/hooks';
import { keyOf } from '../data/keys';
import { INVENTORY_LAB_KEY } from '../last-lab';

const PER_PAGE = 25;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ALL = 'all';
/** The lab filter last chosen on this browser ('' for every lab), restored when the inventory opens without one. */
const REMEMBERED = INVENTORY_LAB_KEY;
const remembered = (): string => {
  try {
    return window.localStorage.getItem(REMEMBERED) ?? '';
  } catch {
    return '';
  }
};
const remember = (labId: string) => {
  try {
    window.localStorage.setItem(REMEMBERED, labId);
  } catch {
    // Storage refused (private mode, quota): the filter is simply not remembered.
  }
};

/**
 * The items of every lab the person may see (a lab filter narrows to one, and is remembered), the words, the
 * filters, the order and a page of the list. All of it lives in the URL's query string, so a link reproduces the
 * view and back/forward step through the filters.
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

  // Every lab, page by page: a person in more labs than one page holds still finds them all.
  const labs = useLabs();
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
  // Opened without a lab filter: the one chosen last time, if the person still sees that lab (once per visit).
  const restored = useRef(false);
  const lastLab = remembered();
  // Until then the list waits, rather than asking for every lab's items first.
  const restoring =
    !restored.current && !params.has('lab') && lastLab !== '' && (labs.isPending || labs.data?.some((l) => l.id === lastLab) === true);
  useEffect(() => {
    if (restored.current || leaving || !labs.data) return;
    restored.current = true;
    if (!params.has('lab') && labs.data.some((l) => l.id === lastLab)) update({ lab: lastLab }, true);
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
    ...(labId ? { lab_id: labId } : {}),
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
    queryKey: keyOf('/inventory-items', { query }),
    enabled: !restoring,
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

  const chooseLab = (value: string | null) => {
    const next = value && value !== ALL ? value : '';
    remember(next);
    update({ lab: next || null, type: null, location: null });
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Inventory</Title>
        <Group gap="xs">
          {/* A file is imported into one lab (docs/csv.md): offered once a lab is chosen; the import page says who may. */}
          {labId && (
            <Button component={Link} to={`/labs/${labId}/import`} variant="default" data-testid="import-csv">
              Import from CSV
            </Button>
          )}
          <Button component={Link} to={labId ? `/inventory/items/new?lab=${labId}` : '/inventory/items/new'}>
            New item
          </Button>
        </Group>
      </Group>
      {labs.isError && <ErrorNotice error={labs.error} />}
      <Group align="end" wrap="wrap">
        <Select
          label="Lab"
          data={[{ value: ALL, label: 'All my labs' }, ...(labs.data ?? []).map((l) => ({ value: l.id, label: l.name }))]}
          value={labId || ALL}
          onChange={chooseLab}
          allowDeselect={false}
          searchable
          w={260}
        />
        <TextInput
          label="Search"
          placeholder="Part of a name, CAS, catalog or lot number"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={320}
        />
      </Group>
      <InventoryFilters labId={labId} usesInstances={lab?.uses_instances ?? false} values={filters} onChange={update} />
      {items.isError && <ErrorNotice error={items.error} />}
      {items.isPending && !restoring && <Loading label="Loading items" />}
      {labs.data?.length === 0 && <Text>You belong to no lab yet: ask an organization admin to add you to one.</Text>}
      {items.data && items.data.rows.length === 0 && (
        <Text data-testid="no-items">
          {urlQ
            ? `Nothing matches “${urlQ}”${filtered ? ' with these filters' : ''}${labId ? ' in this lab' : ''}.`
            : filtered
              ? 'No item matches these filters.'
              : labId
                ? 'This lab holds no items yet.'
                : 'Your labs hold no items yet.'}
        </Text>
      )}
      {items.data && items.data.rows.length > 0 && (
        <>
          <InventoryRows
            items={items.data.rows}
            q={urlQ}
            showLab={!labId && (labs.data?.length ?? 0) !== 1}
            sort={filters.sort}
            onSort={(sort) => update({ sort })}
          />
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
