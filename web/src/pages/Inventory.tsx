import { Button, Checkbox, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigation, useSearchParams } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice';
import { type HazardClassId, useItemPictograms } from '../components/hazards/list';
import { InventoryFilters, isSort, type SortValue } from '../components/InventoryFilters';
import { inventoryColumns } from '../components/InventoryRows';
import { useStartLabCount } from '../components/stocktake/OpenCounts';
import { useItemAmounts } from '../data/amounts';
import { DataTable, PHONE } from '../data/DataTable';
import { useLabs, usePage } from '../data/hooks';
import { type InventorySelection, useInventorySelection } from '../inventory-selection';
import { PrintLabels } from '../labels/PrintLabels';
import { INVENTORY_LAB_KEY } from '../last-lab';

const PER_PAGE = 25;
const NO_AMOUNTS = new Map();
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
    // A hazard class id (GET /hazards/classes); one the API does not know is a clear 422 in the list.
    hazard: /^[a-z-]{1,60}$/.test(params.get('hazard') ?? '') ? (params.get('hazard') as string) : '',
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
    ...(filters.hazard ? { hazard_class: filters.hazard as HazardClassId } : {}),
    ...(filters.sort ? { sort: filters.sort } : {}),
    page,
    per_page: PER_PAGE,
  };
  const items = usePage('/inventory-items', { query }, { enabled: !restoring });
  const filtered = Boolean(filters.type || filters.location || filters.expiring || filters.below || filters.hazard);
  const rows = items.data?.rows ?? [];
  const pictograms = useItemPictograms(rows.map((i) => i.id));
  const amounts = useItemAmounts(rows).data ?? NO_AMOUNTS;
  const selection = useInventorySelection();
  const startCount = useStartLabCount();
  const phone = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });

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
          {/* A lab without instances is counted as a whole (docs/stocktake.md); an open count of it is resumed. */}
          {lab && !lab.uses_instances && (
            <Button variant="default" onClick={() => startCount.submit(lab.id)} loading={startCount.isPending}>
              Count this lab
            </Button>
          )}
          {/* A file is imported into one lab (docs/csv.md): offered once a lab is chosen; the import page says who may. */}
          {labId && (
            <Button component={Link} to={`/labs/${labId}/import`} variant="default" data-testid="import-csv">
              Import from CSV
            </Button>
          )}
          {/* The items selected, wherever they were selected; else the items this page shows, as filtered. Either way
              their labels: a legacy item's own, or each of its containers'. */}
          {selection.ids.length > 0 ? (
            <PrintLabels selection={{ item_ids: selection.ids }}>
              {selection.ids.length === 1 ? 'Print labels of the selected item' : `Print labels of ${selection.ids.length} selected items`}
            </PrintLabels>
          ) : (
            rows.length > 0 && <PrintLabels selection={{ item_ids: rows.map((i) => i.id) }}>Print labels of these items</PrintLabels>
          )}
          <Button component={Link} to={labId ? `/inventory/items/new?lab=${labId}` : '/inventory/items/new'}>
            New item
          </Button>
        </Group>
      </Group>
      {labs.isError && <ErrorNotice error={labs.error} />}
      {startCount.isError && <ErrorNotice error={startCount.error} title="The count did not start" />}
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
      {!restoring && rows.length > 0 && <SelectionBar rows={rows} selection={selection} />}
      {labs.data?.length === 0 && <Text>You belong to no lab yet: ask an organization admin to add you to one.</Text>}
      {/* Until the remembered lab is restored the list waits (above) and shows nothing rather than a spinner. */}
      {!restoring && (
        <DataTable
          label="Items"
          testId="items-table"
          emptyTestId="no-items"
          totalTestId="items-total"
          cardTestId="item-card"
          query={items}
          columns={inventoryColumns(rows, {
            q: urlQ,
            showLab: !labId && (labs.data?.length ?? 0) !== 1,
            selection,
            phone,
            pictograms,
            amounts,
          })}
          rowKey={(item) => item.id}
          page={page}
          perPage={PER_PAGE}
          onPage={(n) => update({ page: n === 1 ? null : String(n) })}
          sort={filters.sort || undefined}
          onSort={(sort) => update({ sort })}
          noPhoneOrder
          noun={['item', 'items']}
          loadingLabel="Loading items"
          minWidth={600}
          empty={
            urlQ
              ? `Nothing matches “${urlQ}”${filtered ? ' with these filters' : ''}${labId ? ' in this lab' : ''}.`
              : filtered
                ? 'No item matches these filters.'
                : labId
                  ? 'This lab holds no items yet.'
                  : 'Your labs hold no items yet.'
          }
        />
      )}
    </Stack>
  );
}

/**
 * Above the list: select every item of this page (checked when all are, half when some are), how many are selected
 * in all (other pages and filters included), and clearing them (docs/labels.md).
 */
function SelectionBar({ rows, selection }: { rows: { id: string }[]; selection: InventorySelection }) {
  const onPage = rows.filter((r) => selection.has(r.id)).length;
  const count = selection.ids.length;
  return (
    <Group gap="md" data-testid="selection-bar">
      <Checkbox
        label="Select all on this page"
        checked={onPage === rows.length}
        indeterminate={onPage > 0 && onPage < rows.length}
        onChange={(e) => selection.setAll(rows, e.currentTarget.checked)}
      />
      {count > 0 && (
        <>
          <Text size="sm" data-testid="selected-count" aria-live="polite">
            {count} selected{onPage < count ? ` (${onPage} on this page)` : ''}
          </Text>
          <Button variant="subtle" size="compact-sm" onClick={selection.clear}>
            Clear selection
          </Button>
        </>
      )}
    </Group>
  );
}
