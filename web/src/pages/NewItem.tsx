import { Anchor, Fieldset, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import { apiValue, ItemForm, type ItemFormValues, valuesOf } from '../components/ItemForm';
import { useLabLocations } from '../components/instances/LocationSelect';
import { useLabs } from '../data/hooks';
import { DecimalInput, readDecimal } from '../forms/DecimalInput';
import { idempotent, useSubmission } from '../forms/submission';
import { formFieldsFor, type ItemFields } from '../item-fields';

/** How much there is: optional (a legacy item starts at 0, a lab that uses instances gets no instance), 0 allowed. */
const QUANTITY_RULES = { optional: true, allowZero: true } as const;

/**
 * A new item in the lab of the list it was opened from (?lab=): the item's fields, and how much there is: in a legacy
 * lab on the item, in a lab that uses instances as its first instance (lot, expiry, location), per POST /inventory-items.
 */
export function NewItemPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const labs = useLabs();
  const [labId, setLabId] = useState<string | null>(params.get('lab'));
  const lab = labs.data?.find((l) => l.id === labId) ?? null;
  const [stock, setStock] = useState({ quantity: '', lot: '', expiry: '', locationId: null as string | null });
  const locations = useLabLocations(labId ?? '', { enabled: lab?.uses_instances === true });
  const [tried, setTried] = useState(false);
  const parsedQuantity = readDecimal(stock.quantity, QUANTITY_RULES);
  // One key per intended item, kept for this history entry: going back here and creating again replays the first.
  const create = useSubmission({
    name: 'new-item',
    send: (values: ItemFormValues, key) => {
      const quantity = parsedQuantity.value ?? '';
      const fields = Object.fromEntries(
        formFieldsFor(lab!.uses_instances)
          .map((key) => [key, apiValue(key, values[key])] as const)
          .filter(([, value]) => value !== null),
      ) as ItemFields;
      const instance = {
        quantity,
        ...(stock.lot.trim() ? { lot_number: stock.lot.trim() } : {}),
        ...(stock.expiry ? { expiration_date: stock.expiry } : {}),
        ...(stock.locationId ? { location_id: stock.locationId } : {}),
      };
      return unwrap(
        api.POST('/inventory-items', {
          body: {
            lab_id: lab!.id,
            name: values.name.trim(),
            ...fields,
            ...(lab!.uses_instances ? (quantity ? { instances: [instance] } : {}) : quantity ? { quantity } : {}),
          },
          headers: idempotent(key),
        }),
      );
    },
    onSuccess: (item) => navigate(`/inventory/items/${item.id}`),
  });
  const set = (key: keyof typeof stock) => (e: { currentTarget: { value: string } }) =>
    setStock({ ...stock, [key]: e.currentTarget.value });

  return (
    <Stack>
      <Anchor component={Link} to={labId ? `/inventory?lab=${labId}` : '/inventory'} size="sm">
        ← Inventory
      </Anchor>
      <Title order={2}>New item</Title>
      {labs.isError && <ErrorNotice error={labs.error} />}
      {labs.isPending && <Loading label="Loading the labs" />}
      {labs.data?.length === 0 && <Text>You belong to no lab yet: ask an organization admin to add you to one.</Text>}
      {labs.data && labs.data.length > 0 && (
        <Select
          label="Lab"
          required
          data={labs.data.map((l) => ({ value: l.id, label: l.name }))}
          value={lab ? labId : null}
          onChange={setLabId}
          allowDeselect={false}
          maw={360}
        />
      )}
      {lab && (
        <ItemForm
          key={lab.id}
          labId={lab.id}
          usesInstances={lab.uses_instances}
          initial={valuesOf(null)}
          submitLabel="Create item"
          pending={create.isPending}
          onSubmit={(values) => {
            setTried(true);
            if (!parsedQuantity.error) create.submit(values);
          }}
          error={create.isError && <ErrorNotice error={create.error} title="Not created" />}
          extra={
            <Fieldset legend={lab.uses_instances ? 'First instance (optional)' : 'Stock'} maw={720}>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <DecimalInput
                  label="Quantity"
                  placeholder={lab.uses_instances ? 'empty: no instance yet' : '0'}
                  rules={QUANTITY_RULES}
                  showError={tried}
                  value={stock.quantity}
                  onChange={(quantity) => setStock({ ...stock, quantity })}
                />
                {lab.uses_instances && (
                  <>
                    <TextInput label="Instance lot number" value={stock.lot} onChange={set('lot')} />
                    <TextInput label="Instance expires on" type="date" value={stock.expiry} onChange={set('expiry')} />
                    <Select
                      label="Instance location"
                      placeholder={locations.isPending ? 'Loading…' : 'Choose where it is'}
                      data={(locations.data ?? []).map((l) => ({ value: l.id, label: l.pathNames.join(' / ') }))}
                      value={stock.locationId}
                      onChange={(locationId) => setStock({ ...stock, locationId })}
                      searchable
                      clearable
                    />
                  </>
                )}
              </SimpleGrid>
            </Fieldset>
          }
        />
      )}
    </Stack>
  );
}
