import { Select, type SelectProps } from '@mantine/core';
import { useLabs, usePeople, useTypes } from './hooks';

// Pickers over whole lists (useAll: every page of the list, never the first 100). The API has no name search for
// labs, types or people yet, so the picker searches what it loaded as the person types; when one is added to the
// server, only these components change.

type PickerProps = Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  value: string | null;
  onChange: (id: string | null) => void;
};

/** One of the labs the person sees. */
export function LabPicker({ value, onChange, ...rest }: PickerProps) {
  const labs = useLabs();
  return (
    <Select
      searchable
      placeholder={labs.isPending ? 'Loading labs…' : 'Choose a lab'}
      nothingFoundMessage="No lab by that name"
      {...rest}
      error={rest.error ?? (labs.isError ? 'The labs could not be loaded' : undefined)}
      data={(labs.data ?? []).map((l) => ({ value: l.id, label: l.name }))}
      value={value}
      onChange={onChange}
    />
  );
}

/** One of a lab's item types. */
export function TypePicker({ labId, value, onChange, ...rest }: PickerProps & { labId: string | null }) {
  const types = useTypes(labId);
  return (
    <Select
      searchable
      placeholder={!labId ? 'Choose a lab first' : types.isPending ? 'Loading types…' : 'Choose a type'}
      nothingFoundMessage="No type by that name"
      {...rest}
      error={rest.error ?? (types.isError ? 'The types could not be loaded' : undefined)}
      data={(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
      value={value}
      onChange={onChange}
    />
  );
}

/** A person of the organization (org admins only: the API lists people to them alone); `exclude` leaves some out. */
export function PersonPicker({
  value,
  onChange,
  exclude,
  activeOnly = true,
  ...rest
}: PickerProps & { exclude?: Set<string>; activeOnly?: boolean }) {
  const people = usePeople();
  const data = (people.data ?? [])
    .filter((p) => (!activeOnly || p.deactivated_at === null) && !exclude?.has(p.id))
    .map((p) => ({ value: p.id, label: `${`${p.first_name} ${p.last_name}`.trim() || p.email} (${p.email})` }));
  return (
    <Select
      searchable
      placeholder={people.isPending ? 'Loading people…' : 'Choose a person'}
      nothingFoundMessage="Nobody by that name"
      {...rest}
      error={rest.error ?? (people.isError ? "The organization's people could not be loaded" : undefined)}
      data={data}
      value={value}
      onChange={onChange}
    />
  );
}
