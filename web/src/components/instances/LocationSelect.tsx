import { Select, type SelectProps } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api';
import { keyOf } from '../../data/keys';
import { pathOf } from '../../locations';

/** The lab's locations (GET /labs/{id}/locations answers the whole tree), cached per lab. */
export function useLabLocations(labId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: keyOf('/labs/{id}/locations', { path: { id: labId } }),
    ...options,
    queryFn: () => unwrap(api.GET('/labs/{id}/locations', { params: { path: { id: labId } } })),
  });
}

/** A location of the lab by its path ("Room 101 / Fridge 2 / Shelf 1"), searchable; cleared means none. */
export function LocationSelect(
  props: { labId: string; value: string | null; onChange: (id: string | null) => void } & Omit<SelectProps, 'value' | 'onChange' | 'data'>,
) {
  const { labId, value, onChange, ...rest } = props;
  const locations = useLabLocations(labId);
  const data = (locations.data ?? []).map((l) => ({ value: l.id, label: pathOf(l) })).sort((a, b) => a.label.localeCompare(b.label));
  return (
    <Select
      searchable
      clearable
      nothingFoundMessage="No such location"
      placeholder={locations.isPending ? 'Loading locations…' : 'No location'}
      {...rest}
      data={data}
      value={value}
      onChange={(v) => onChange(v)}
    />
  );
}
