import type { InventoryItem, operations } from '@labstock/client';
import { Button, Group, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTypes } from '../data/hooks';
import { DecimalInput, readDecimal } from '../forms/DecimalInput';

/** Only http(s) links are stored (the server refuses any other, docs/api.md): a `javascript:` address never runs. */
const WEB_PAGE = /^https?:\/\/\S+$/i;
export const webPageError = (text: string): string | undefined =>
  text.trim() === '' || WEB_PAGE.test(text.trim()) ? undefined : 'Enter a web address that starts with http:// or https://.';
const PRICE_RULES = { optional: true, allowZero: true } as const;

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
  const types = useTypes(props.labId);
  const text = (key: keyof ItemFormValues) => ({
    value: values[key],
    onChange: (e: { currentTarget: { value: string } }) => setValues({ ...values, [key]: e.currentTarget.value }),
  });
  // Errors show under their field once it was left or a submit was tried (DecimalInput does the same for the price).
  const [tried, setTried] = useState(false);
  const [urlTouched, setUrlTouched] = useState(false);
  const price = readDecimal(values.price, PRICE_RULES);
  const urlError = webPageError(values.url);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (values.name.trim() === '' || price.error || urlError || props.pending) return;
    // The price as the API takes it (a decimal comma read as the person's locale writes it).
    props.onSubmit({ ...values, price: price.value ?? '' });
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
          <DecimalInput
            label="Price"
            placeholder="e.g. 42.50"
            rules={PRICE_RULES}
            showError={tried}
            value={values.price}
            onChange={(price) => setValues({ ...values, price })}
          />
          <TextInput label="Serial number" {...text('serial_number')} />
          <TextInput
            label="Web page"
            inputMode="url"
            placeholder="https://"
            {...text('url')}
            onBlur={() => setUrlTouched(true)}
            error={tried || urlTouched ? urlError : undefined}
          />
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
          {/* Without a name there is nothing to send; other fields say under themselves what they cannot take. */}
          <Button type="submit" loading={props.pending} disabled={values.name.trim() === ''}>
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
