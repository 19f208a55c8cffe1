import { MultiSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api';
import { keyOf } from '../../data/keys';

/** The rules table (GET /hazards/statements): the same for everyone, read once a session. */
export function useHazardStatements() {
  return useQuery({
    queryKey: keyOf('/hazards/statements'),
    queryFn: () => unwrap(api.GET('/hazards/statements')),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** A searchable multi-select of hazard statements: "H225 Highly flammable liquid and vapour". */
export function HazardPicker({ value, onChange, label }: { value: string[]; onChange: (codes: string[]) => void; label: string }) {
  const statements = useHazardStatements();
  const data = (statements.data ?? []).map((s) => ({ value: s.code, label: `${s.code} ${s.text}` }));
  return (
    <MultiSelect
      label={label}
      placeholder={value.length === 0 ? 'Type a code or words, e.g. H225 or flammable' : undefined}
      data={data}
      value={value}
      onChange={onChange}
      searchable
      clearable
      hidePickedOptions
      nothingFoundMessage="No hazard statement matches"
      maxDropdownHeight={280}
      comboboxProps={{ withinPortal: true }}
      disabled={statements.isPending}
      error={statements.isError ? 'The list of hazard statements could not be loaded' : undefined}
    />
  );
}
