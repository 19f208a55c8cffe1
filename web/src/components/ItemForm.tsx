import type { InventoryItem } from '@labstock/client';
import { Button, Group, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTypes } from '../data/hooks';
import { DecimalInput, readDecimal } from '../forms/DecimalInput';
import { type FieldInput, FORM_FIELDS, type FormField, formFieldsFor, ITEM_FIELD_WORDS, type ItemFieldWords } from '../item-fields';

/** Only http(s) links are stored (the server refuses any other, docs/api.md): a `javascript:` address never runs. */
const WEB_PAGE = /^https?:\/\/\S+$/i;
export const webPageError = (text: string): string | undefined =>
  text.trim() === '' || WEB_PAGE.test(text.trim()) ? undefined : 'Enter a web address that starts with http:// or https://.';
const PRICE_RULES = { optional: true, allowZero: true } as const;

/** The item's own fields as the form holds them (web/src/item-fields.ts): text, '' for none. */
export type ItemFormValues = Record<FormField, string>;

const placeName = (place: { name: string } | null | undefined) => place?.name ?? '';

export function valuesOf(item: InventoryItem | null): ItemFormValues {
  const shown = (key: FormField): string => {
    if (!item) return '';
    const input: FieldInput = ITEM_FIELD_WORDS[key].input;
    if (input === 'type') return item.type?.id ?? '';
    if (input === 'place') return placeName(item[key as 'location' | 'sublocation']);
    return (item[key as Exclude<FormField, 'type_id' | 'location' | 'sublocation'>] as string | null) ?? '';
  };
  return Object.fromEntries(FORM_FIELDS.map((key) => [key, shown(key)])) as ItemFormValues;
}

/** A form value as the API wants it: trimmed, and null for nothing; places are objects. */
export function apiValue(key: FormField, value: string): string | { name: string } | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  return ITEM_FIELD_WORDS[key].input === 'place' ? { name: trimmed } : trimmed;
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
  const shownFields = formFieldsFor(props.usesInstances).filter((key) => key !== 'name');
  // Each field's input, by its kind (web/src/item-fields.ts).
  const input = (key: FormField) => {
    const field: ItemFieldWords = ITEM_FIELD_WORDS[key];
    const { label, input: kind, placeholder } = field;
    if (kind === 'type')
      return (
        <Select
          key={key}
          label={label}
          placeholder={types.isError ? 'Types could not be loaded' : 'No type'}
          data={(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
          value={values[key] || null}
          onChange={(value) => setValues({ ...values, [key]: value ?? '' })}
          clearable
          searchable
        />
      );
    if (kind === 'decimal')
      return (
        <DecimalInput
          key={key}
          label={label}
          placeholder={placeholder}
          rules={PRICE_RULES}
          showError={tried}
          value={values[key]}
          onChange={(value) => setValues({ ...values, [key]: value })}
        />
      );
    if (kind === 'web page')
      return (
        <TextInput
          key={key}
          label={label}
          inputMode="url"
          placeholder={placeholder}
          {...text(key)}
          onBlur={() => setUrlTouched(true)}
          error={tried || urlTouched ? urlError : undefined}
        />
      );
    if (kind === 'long text') return <Textarea key={key} label={label} autosize minRows={2} {...text(key)} />;
    return <TextInput key={key} label={label} placeholder={placeholder} type={kind === 'date' ? 'date' : undefined} {...text(key)} />;
  };
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
        <TextInput label={ITEM_FIELD_WORDS.name.label} required maxLength={500} {...text('name')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {shownFields.filter((key) => ITEM_FIELD_WORDS[key].input !== 'long text').map(input)}
        </SimpleGrid>
        {shownFields.filter((key) => ITEM_FIELD_WORDS[key].input === 'long text').map(input)}
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
