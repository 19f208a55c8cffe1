import { Anchor, Button, Card, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api';
import { DecimalInput, readDecimal } from '../../forms/DecimalInput';
import { idempotent, useSubmission } from '../../forms/submission';
import { CodeText, PrintLabels } from '../../labels/PrintLabels';
import { ArchiveInstance } from '../ArchiveInstance';
import { PlacementErrorNotice } from '../placement/Findings';
import { checkPlacement, usePlacementGate } from '../placement/gate';
import { PlacementDialog } from '../placement/PlacementDialog';
import { invalidateItem } from '../QuantityEditor';
import { isStale, StaleNotice } from '../StaleNotice';
import { DATE, type Instance, instanceLabel } from './fields';
import { LocationSelect } from './LocationSelect';

type Edit = { quantity?: string; lot_number?: string | null; expiration_date?: string | null; location_id?: string | null };

/**
 * One instance as a card (the same on a phone and a laptop, so Save and Archive are always in reach): its quantity,
 * lot, expiry and location, edited in place and saved in one step (PATCH with the item's ETag, only what changed),
 * and Archive with a reason.
 */
export function InstanceCard(props: {
  itemId: string;
  labId: string;
  instance: Instance;
  etag: string;
  locationId: string | null;
  /** Its label code (docs/labels.md), once known. */
  code?: string;
  /** Its product and serial numbers in words (web/src/scan/identifiers.ts), when it has any. */
  identifiers?: string | null;
  /** The container a scanned label opened: scrolled into view and marked. */
  focused?: boolean;
}) {
  const { instance } = props;
  const queryClient = useQueryClient();
  const [quantity, setQuantity] = useState(instance.quantity);
  const [lot, setLot] = useState(instance.lot_number ?? '');
  const [expiry, setExpiry] = useState(instance.expiration_date ?? '');
  const [locationId, setLocationId] = useState<string | null>(props.locationId);
  const [tried, setTried] = useState(false);
  const label = instanceLabel(instance);
  const card = useRef<HTMLElement>(null);
  useEffect(() => {
    if (props.focused) card.current?.scrollIntoView({ block: 'center' });
  }, [props.focused]);
  const formId = `instance-${instance.id}`;
  const save = useSubmission({
    name: `edit-instance-${instance.id}`,
    // The card stays for the next change: each save is its own intention (a fresh key after a success).
    renewOnSuccess: true,
    send: (body: Edit, key) =>
      unwrap(
        api.PATCH('/inventory-items/{itemId}/instances/{itemInstanceId}', {
          params: { path: { itemId: props.itemId, itemInstanceId: instance.id }, header: { 'if-match': props.etag } },
          body,
          headers: idempotent(key),
        }),
      ),
    onSuccess: () => invalidateItem(queryClient, props.itemId),
  });
  // A move, or more in the same place, is checked first (docs/safety.md): the findings before the person confirms.
  const gate = usePlacementGate();
  const parsed = readDecimal(quantity, { allowZero: true });
  const expiryValid = expiry === '' || DATE.test(expiry);
  const changes: Edit = {};
  if (parsed.value !== undefined && parsed.value !== instance.quantity) changes.quantity = parsed.value;
  if ((lot.trim() || null) !== instance.lot_number) changes.lot_number = lot.trim() || null;
  if ((expiry || null) !== instance.expiration_date) changes.expiration_date = expiry || null;
  if (locationId !== props.locationId) changes.location_id = locationId;
  const changed = Object.keys(changes).length > 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!parsed.value || !expiryValid || !changed) return;
    const target = changes.location_id === undefined ? props.locationId : changes.location_id;
    const more = changes.quantity !== undefined && Number(changes.quantity) > Number(instance.quantity);
    const placed = target !== null && (changes.location_id !== undefined || more);
    gate.ask(
      async () =>
        placed ? checkPlacement({ location_id: target, instances: [{ instance_id: instance.id, quantity: parsed.value! }] }) : null,
      () => save.submit(changes),
    );
  };
  if (save.isError && isStale(save.error)) return <StaleNotice itemId={props.itemId} onReloaded={() => save.reset()} />;
  return (
    <Card
      ref={card}
      withBorder
      padding="sm"
      data-testid="instance-card"
      data-focused={props.focused || undefined}
      aria-label={`Instance: ${label}`}
      component="section"
      style={props.focused ? { borderColor: 'var(--mantine-primary-color-filled)', borderWidth: 2 } : undefined}
    >
      <Stack gap="xs">
        <form id={formId} onSubmit={submit}>
          <Stack gap="xs">
            <Text fw={600} size="sm">
              {[
                instance.lot_number ? `Lot ${instance.lot_number}` : 'No lot number',
                instance.expiration_date ? `expires ${instance.expiration_date}` : null,
                instance.location ? instance.location.pathNames.join(' / ') : 'no location',
              ]
                .filter(Boolean)
                .join(' · ')}
            </Text>
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
              <DecimalInput
                size="xs"
                label="Quantity"
                aria-label={`Quantity of ${label}`}
                value={quantity}
                onChange={setQuantity}
                rules={{ allowZero: true }}
                showError={tried}
              />
              <TextInput size="xs" label="Lot" aria-label={`Lot of ${label}`} value={lot} onChange={(e) => setLot(e.currentTarget.value)} />
              <TextInput
                size="xs"
                type="date"
                label="Expires"
                aria-label={`Expiry of ${label}`}
                value={expiry}
                onChange={(e) => setExpiry(e.currentTarget.value)}
                error={!expiryValid ? 'A date such as 2027-03-31' : undefined}
              />
              <LocationSelect
                size="xs"
                label="Location"
                aria-label={`Location of ${label}`}
                labId={props.labId}
                value={locationId}
                onChange={setLocationId}
              />
            </SimpleGrid>
            {save.isError && <PlacementErrorNotice error={save.error} title="Not saved" />}
          </Stack>
        </form>
        {/* Archive is a form of its own (forms do not nest); Save submits the fields' form by its id. */}
        <Group gap="xs" justify="space-between" align="start">
          <Button
            type="submit"
            form={formId}
            size="xs"
            loading={save.isPending || gate.asking}
            disabled={!changed}
            aria-label={`Save ${label}`}
          >
            Save
          </Button>
          <Anchor component={Link} to={`/inventory/items/${props.itemId}/instances/${instance.id}`} size="sm">
            Documents and safety data sheet
          </Anchor>
          <ArchiveInstance itemId={props.itemId} instanceId={instance.id} etag={props.etag} label={label} />
        </Group>
        <PlacementDialog gate={gate} action={`${locationId !== props.locationId ? 'Move' : 'Save'} ${label}`} />
        {props.identifiers && (
          <Text size="sm" data-testid="instance-identifiers">
            {props.identifiers}
          </Text>
        )}
        {props.code && (
          <Group gap="xs" justify="space-between">
            <Text size="sm">
              Label <CodeText code={props.code} />
            </Text>
            <PrintLabels selection={{ instance_ids: [instance.id] }} size="xs">
              Print label
            </PrintLabels>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
