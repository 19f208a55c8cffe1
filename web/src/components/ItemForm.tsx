import type { InventoryItem, operations } from '@labstock/client';
import { Button, Group, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { api, unwrap } from '../api';

const DECIMAL = /^\d{1,20}(\.\d{1,10})?$/;

/** The item's own fields as the form holds them: text, '' for none. */
export const TEXT_FIELDS = [
  'name',
  'vendor',
  'catalog_number',
  'cas_number',
  'unit_size',
  'price',
  'serial_number',
  'url',
  'technical_details',
] as const;
/** Fields only a legacy lab's item has (docs/api.md: in a lab that uses instances they are per instance). */
export const LEGACY_FIELDS = ['lot_number', 'expiration_date', 'location', 'sublocation'] as const;
export type ItemFormValues = Record<(typeof TEXT_FIELDS)[number] | (typeof LEGACY_FIELDS)[number] | 'type_id', string>;

export function valuesOf(item: InventoryItem | null): ItemFormValues {
  return {
    name: item?.name ?? '',
    vendor: item?.vendor ?? '',
    catalog_number: item?.catalog_number ?? '',
    cas_number: item?.cas_number ?? '',
    unit_size: item?.unit_size ?? '',
    price: item?.price ?? '',
    serial_number: item?.serial_number ?? '',
    url: item?.url ?? '',
    technical_details: item?.technical_details ?? '',
    type_id: item?.type?.id ?? '',
    lot_number: item?.lot_number ?? '',
    expiration_date: item?.expiration_date ?? '',
    location: item?.location?.name ?? '',
    sublocation: item?.sublocation?.name ?? '',
  };
}

/** The fields PATCH /inventory-items/{id} takes; POST takes the same plus lab_id and instances. */
export type ItemFields = operations['updateInventoryItem']['requestBody']['content']['application/json'];

/** A form value as the API wants it: trimmed, and null for nothing; places are objects. */
export function apiValue(key: keyof ItemFormValues, value: string): string | { name: string } | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  return key === 'location' || key === 'sublocation' ? { name: trimmed } : trimmed;
}

/**
 * The fields of an item, for creating one (web/src/pages/NewItem.tsx) and editing it (ItemEditForm). `extra` is what
 * only one of them asks (the first instance, the quantity); the caller builds the body from the values.
 */
export function ItemForm(props: {
  labId: string;
  usesInstances: boolean;
  initial: ItemFormValues;
  submitLabel: string;
  pending: boolean;
  extra?: ReactNode;
  error?: ReactNode;
  onSubmit: (values: ItemFormValues) => void;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState(props.initial);
  const types = useQuery({
    queryKey: ['types', props.labId],
    enabled: props.labId !== '',
    queryFn: () => unwrap(api.GET('/types', { params: { query: { lab_id: props.labId, per_page: 100 } } })),
  });
  const text = (key: keyof ItemFormValues) => ({
    value: values[key],
    onChange: (e: { currentTarget: { value: string } }) => setValues({ ...values, [key]: e.currentTarget.value }),
  });
  const priceValid = values.price.trim() === '' || DECIMAL.test(values.price.trim());
  const valid = values.name.trim() !== '' && priceValid;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) props.onSubmit(values);
  };
  return (
    <form onSubmit={submit} aria-label={props.submitLabel}>
      <Stack maw={720} gap="sm">
        <TextInput label="Name" required maxLength={500} {...text('name')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label="Type"
            placeholder={types.isError ? 'Types could not be loaded' : 'No type'}
            data={(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
            value={values.type_id || null}
            onChange={(value) => setValues({ ...values, type_id: value ?? '' })}
            clearable
            searchable
          />
          <TextInput label="Vendor" {...text('vendor')} />
          <TextInput label="Catalog number" {...text('catalog_number')} />
          <TextInput label="CAS number" placeholder="e.g. 64-17-5" {...text('cas_number')} />
          <TextInput label="Unit size" placeholder="e.g. 500 mL" {...text('unit_size')} />
          <TextInput
            label="Price"
            inputMode="decimal"
            placeholder="e.g. 42.50"
            error={priceValid ? undefined : 'A number such as 42.50'}
            {...text('price')}
          />
          <TextInput label="Serial number" {...text('serial_number')} />
          <TextInput label="Web page" type="url" {...text('url')} />
          {!props.usesInstances && (
            <>
              <TextInput label="Lot number" {...text('lot_number')} />
              <TextInput label="Expires on" type="date" {...text('expiration_date')} />
              <TextInput label="Storage location" placeholder="e.g. Cabinet 1" {...text('location')} />
              <TextInput label="Sublocation" placeholder="e.g. Shelf A" {...text('sublocation')} />
            </>
          )}
        </SimpleGrid>
        <Textarea label="Technical details" autosize minRows={2} {...text('technical_details')} />
        {props.extra}
        {props.error}
        <Group>
          <Button type="submit" loading={props.pending} disabled={!valid}>
            {props.submitLabel}
          </Button>
          {props.onCancel && (
            <Button variant="default" onClick={props.onCancel}>
              Cancel
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
