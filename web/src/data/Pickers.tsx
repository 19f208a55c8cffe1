import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useRef, useState } from 'react';
import { usePage } from './hooks';

// Pickers that search the server (docs/web.md, "Data layer"): what the person types is sent as `q` to the list
// (GET /labs, /types, /organization/users take it: docs/api.md), and the first page of matches is offered, with a
// line saying how many more there are. Nothing is loaded whole and filtered in the browser, so an organization with
// a thousand people or labs picks as quickly as one with five, and nobody is silently missing past the first 100.

const SHOWN = 50;

type PickerProps = Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  value: string | null;
  onChange: (id: string | null) => void;
};

interface Option {
  value: string;
  label: string;
}

/** The typed text, debounced; the label of the chosen option is not a search (Mantine writes it into the box). */
function useSearch() {
  const [typed, setTyped] = useState('');
  const chosenLabel = useRef<string | null>(null);
  const [debounced] = useDebouncedValue(typed, 250);
  const q = debounced.trim() === '' || debounced === chosenLabel.current ? undefined : debounced.trim();
  return { typed, setTyped, q, chosenLabel };
}

/** The matches, the chosen option kept even when the current matches do not hold it, and "N more" when cut. */
function optionsOf(rows: Option[] | undefined, chosen: Option | null, total: number | undefined) {
  const data = [...(rows ?? [])];
  if (chosen && !data.some((o) => o.value === chosen.value)) data.unshift(chosen);
  const more = total !== undefined && rows && total > rows.length ? total - rows.length : 0;
  return { data, more };
}

function SearchSelect({
  value,
  onChange,
  rows,
  total,
  pending,
  failed,
  search,
  noun,
  ...rest
}: PickerProps & {
  rows: Option[] | undefined;
  total: number | undefined;
  pending: boolean;
  failed: string | undefined;
  search: ReturnType<typeof useSearch>;
  noun: string;
}) {
  const chosen = useRef<Option | null>(null);
  const known = rows?.find((o) => o.value === value);
  if (known) chosen.current = known;
  if (value === null) chosen.current = null;
  const { data, more } = optionsOf(rows, value ? chosen.current : null, total);
  return (
    <Select
      searchable
      placeholder={pending ? 'Loading…' : `Choose a ${noun}`}
      nothingFoundMessage={pending ? 'Searching…' : `No ${noun} by that name`}
      description={more > 0 ? `${more} more: type to narrow` : undefined}
      {...rest}
      error={rest.error ?? failed}
      data={data}
      // The server has filtered already: Mantine must not filter again by the box's text.
      filter={({ options }) => options}
      searchValue={search.typed}
      onSearchChange={search.setTyped}
      value={value}
      onChange={(id, option) => {
        chosen.current = option ? { value: option.value, label: option.label } : null;
        search.chosenLabel.current = option?.label ?? null;
        onChange(id);
      }}
    />
  );
}

/** One of the labs the person sees. */
export function LabPicker(props: PickerProps) {
  const search = useSearch();
  const labs = usePage('/labs', { query: { per_page: SHOWN, ...(search.q ? { q: search.q } : {}) } });
  return (
    <SearchSelect
      {...props}
      noun="lab"
      search={search}
      rows={labs.data?.rows.map((l) => ({ value: l.id, label: l.name }))}
      total={labs.data?.total}
      pending={labs.isPending || labs.isFetching}
      failed={labs.isError ? 'The labs could not be loaded' : undefined}
    />
  );
}

/** One of a lab's item types. */
export function TypePicker({ labId, ...props }: PickerProps & { labId: string | null }) {
  const search = useSearch();
  const types = usePage(
    '/types',
    { query: { lab_id: labId ?? '', per_page: SHOWN, ...(search.q ? { q: search.q } : {}) } },
    { enabled: !!labId },
  );
  return (
    <SearchSelect
      placeholder={!labId ? 'Choose a lab first' : undefined}
      {...props}
      noun="type"
      search={search}
      rows={types.data?.rows.map((t) => ({ value: t.id, label: t.name }))}
      total={types.data?.total}
      pending={!!labId && (types.isPending || types.isFetching)}
      failed={types.isError ? 'The types could not be loaded' : undefined}
    />
  );
}

/** A person of the organization (org admins only: the API lists people to them alone); `exclude` leaves some out. */
export function PersonPicker({ exclude, activeOnly = true, ...props }: PickerProps & { exclude?: Set<string>; activeOnly?: boolean }) {
  const search = useSearch();
  const people = usePage('/organization/users', { query: { per_page: SHOWN, ...(search.q ? { q: search.q } : {}) } });
  const rows = people.data?.rows
    .filter((p) => (!activeOnly || p.deactivated_at === null) && !exclude?.has(p.id))
    .map((p) => ({ value: p.id, label: `${`${p.first_name} ${p.last_name}`.trim() || p.email} (${p.email})` }));
  return (
    <SearchSelect
      {...props}
      noun="person"
      search={search}
      rows={rows}
      total={people.data?.total}
      pending={people.isPending || people.isFetching}
      failed={people.isError ? "The organization's people could not be loaded" : undefined}
    />
  );
}
