import { Button, Group, Select, Switch, TextInput } from '@mantine/core';
import { useTypes } from '../data/hooks';
import { useHazardClasses } from './hazards/list';
import { useLabLocations } from './instances/LocationSelect';

/** The filters of GET /inventory-items besides the words (docs/api.md "Searching and filtering inventory items"). */
export interface InventoryFilterValues {
  type: string;
  location: string;
  expiring: string;
  below: boolean;
  hazard: string;
  sort: SortValue | '';
}

export const SORT_OPTIONS = [
  { value: 'name', label: 'Name, A to Z' },
  { value: '-name', label: 'Name, Z to A' },
  { value: 'expiration_date', label: 'Expires soonest first' },
  { value: '-expiration_date', label: 'Expires latest first' },
  { value: '-updated_at', label: 'Changed most recently' },
  { value: 'updated_at', label: 'Changed least recently' },
] as const;
export type SortValue = (typeof SORT_OPTIONS)[number]['value'];
export const isSort = (value: string | null): value is SortValue => SORT_OPTIONS.some((o) => o.value === value);

/**
 * Type, location (with everything below it), expiring before, below minimum and the order. Types and locations
 * belong to one lab: they are offered once a lab is chosen (`labId` '' is every lab). The values come from the URL
 * and every change goes back into it (web/src/pages/Inventory.tsx), so a link reproduces the view.
 */
export function InventoryFilters(props: {
  labId: string;
  usesInstances: boolean;
  values: InventoryFilterValues;
  onChange: (changes: Record<string, string | null>) => void;
}) {
  const { labId, values, onChange } = props;
  // Every page of the lab's types, so a lab with more than one page of them offers all of them.
  const types = useTypes(labId);
  const locations = useLabLocations(labId, { enabled: labId !== '' && props.usesInstances });
  const hazardClasses = useHazardClasses();
  const filtered = values.type || values.location || values.expiring || values.below || values.hazard;
  return (
    <Group align="end" wrap="wrap" gap="sm">
      {labId !== '' && (
        <Select
          label="Type"
          placeholder={types.isError ? 'Types could not be loaded' : 'Any type'}
          data={(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
          value={values.type || null}
          onChange={(value) => onChange({ type: value })}
          clearable
          searchable
          w={200}
        />
      )}
      {labId !== '' && props.usesInstances && (
        <Select
          label="Location"
          description="and everything in it"
          placeholder={locations.isError ? 'Locations could not be loaded' : 'Anywhere'}
          data={(locations.data ?? []).map((l) => ({ value: l.id, label: l.pathNames.join(' / ') }))}
          value={values.location || null}
          onChange={(value) => onChange({ location: value })}
          clearable
          searchable
          w={260}
        />
      )}
      <TextInput
        label="Expiring before"
        type="date"
        value={values.expiring}
        onChange={(e) => onChange({ expiring: e.currentTarget.value || null })}
        w={170}
      />
      <Select
        label="Hazard"
        placeholder={hazardClasses.isError ? 'Hazard classes could not be loaded' : 'Any hazard'}
        data={(hazardClasses.data ?? []).map((k) => ({ value: k.id, label: k.name }))}
        value={values.hazard || null}
        onChange={(value) => onChange({ hazard: value })}
        clearable
        searchable
        w={240}
      />
      <Select
        label="Order"
        placeholder="As added"
        data={SORT_OPTIONS.map((o) => ({ ...o }))}
        value={values.sort || null}
        onChange={(value) => onChange({ sort: value })}
        clearable
        w={220}
      />
      <Switch
        label="Below minimum"
        checked={values.below}
        onChange={(e) => onChange({ below: e.currentTarget.checked ? 'true' : null })}
        mb={8}
      />
      {filtered && (
        <Button
          variant="subtle"
          size="xs"
          mb={6}
          onClick={() => onChange({ type: null, location: null, expiring: null, below: null, hazard: null })}
        >
          Clear filters
        </Button>
      )}
    </Group>
  );
}
