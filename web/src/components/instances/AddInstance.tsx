import { Button, Card, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api';
import { DecimalInput, readDecimal } from '../../forms/DecimalInput';
import { idempotent, useSubmission } from '../../forms/submission';
import { identifiersFrom, type ScannedIdentifiers, VendorBarcode } from '../../scan/VendorBarcode';
import { PlacementErrorNotice } from '../placement/Findings';
import { checkPlacement, usePlacementGate } from '../placement/gate';
import { PlacementDialog } from '../placement/PlacementDialog';
import { invalidateItem } from '../QuantityEditor';
import { DATE } from './fields';
import { LocationSelect } from './LocationSelect';

/**
 * Adds an instance to an item (a bottle found on a shelf): quantity, and when known its lot, expiry and location.
 * One Idempotency-Key per opened form, so a double-click or a retry adds one bottle.
 */
export function AddInstance(props: { itemId: string; labId: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [quantity, setQuantity] = useState('');
  const [lot, setLot] = useState('');
  const [expiry, setExpiry] = useState('');
  const [locationId, setLocationId] = useState<string | null>(null);
  const [identifiers, setIdentifiers] = useState<ScannedIdentifiers | undefined>(undefined);
  const [tried, setTried] = useState(false);
  const add = useSubmission({
    name: 'add-instance',
    // Adding another bottle on this page is another intention: a fresh key after a success.
    renewOnSuccess: true,
    send: (
      body: {
        quantity: string;
        lot_number: string | null;
        expiration_date: string | null;
        location_id: string | null;
        identifiers?: ScannedIdentifiers;
      },
      key,
    ) =>
      unwrap(
        api.POST('/inventory-items/{id}/instances', {
          params: { path: { id: props.itemId } },
          body,
          headers: idempotent(key),
        }),
      ),
    onSuccess: async () => {
      await invalidateItem(queryClient, props.itemId);
      props.onDone();
    },
  });
  // Where it goes is checked first (docs/safety.md): the findings before the person confirms.
  const gate = usePlacementGate();
  const parsed = readDecimal(quantity, { allowZero: true });
  const expiryValid = expiry === '' || DATE.test(expiry);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!parsed.value || !expiryValid) return;
    const value = parsed.value;
    const body = {
      quantity: parsed.value,
      lot_number: lot.trim() || null,
      expiration_date: expiry || null,
      location_id: locationId,
      ...(identifiers ? { identifiers } : {}),
    };
    gate.ask(
      async () => (locationId ? checkPlacement({ location_id: locationId, items: [{ item_id: props.itemId, quantity: value }] }) : null),
      () => add.submit(body),
    );
  };
  return (
    <Card withBorder component="form" onSubmit={submit} aria-label="Add an instance">
      <Stack gap="xs">
        <VendorBarcode
          takesPageScans
          onRead={(filled, reading) => {
            setIdentifiers(identifiersFrom(reading));
            if (filled.lot_number) setLot(filled.lot_number);
            if (filled.expiration_date) setExpiry(filled.expiration_date);
          }}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          <DecimalInput label="Quantity" value={quantity} onChange={setQuantity} rules={{ allowZero: true }} showError={tried} required />
          <TextInput label="Lot number" value={lot} onChange={(e) => setLot(e.currentTarget.value)} />
          <TextInput
            label="Expires"
            type="date"
            value={expiry}
            onChange={(e) => setExpiry(e.currentTarget.value)}
            error={!expiryValid ? 'A date such as 2027-03-31' : undefined}
          />
          <LocationSelect label="Location" labId={props.labId} value={locationId} onChange={setLocationId} />
        </SimpleGrid>
        {add.isError && <PlacementErrorNotice error={add.error} title="Not added" />}
        <PlacementDialog gate={gate} action="Add an instance" />
        <Group gap="xs">
          <Button type="submit" loading={add.isPending || gate.asking}>
            Add instance
          </Button>
          <Button variant="default" onClick={props.onDone}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
