import type { components } from '@labstock/client';
import { Anchor, Button, Card, Group, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import { DATE } from '../components/instances/fields';
import { LocationSelect, useLabLocations } from '../components/instances/LocationSelect';
import { PlacementErrorNotice } from '../components/placement/Findings';
import { checkPlacement, usePlacementGate } from '../components/placement/gate';
import { PlacementDialog } from '../components/placement/PlacementDialog';
import { invalidateItem } from '../components/QuantityEditor';
import { useLabs, usePage } from '../data/hooks';
import { invalidate } from '../data/keys';
import { idempotent, useSubmission } from '../forms/submission';
import { PrintLabels } from '../labels/PrintLabels';
import { identifiersFrom, type ScannedIdentifiers, VendorBarcode } from '../scan/VendorBarcode';

type Row = components['schemas']['PutAwayInstance'];
const PER_PAGE = 25;

/**
 * Put-away (docs/product.md §14): what arrived without a lot, an expiry or a location, in one lab or every lab of the
 * person, oldest first. Each row is filled in and put away in one step; what has none is put away as it is.
 */
/** Midnight of today where the person is, as the API's date-time. */
const startOfToday = () => {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return d.toISOString();
};

export function PutAwayPage() {
  const [params, setParams] = useSearchParams();
  const labId = params.get('lab') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const labs = useLabs();
  const list = usePage('/put-away', { query: { ...(labId ? { lab_id: labId } : {}), page, per_page: PER_PAGE } });
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / PER_PAGE));
  const go = (next: { lab?: string; page?: number }) => {
    const lab = next.lab ?? labId;
    setParams({ ...(lab ? { lab } : {}), ...(next.page && next.page > 1 ? { page: String(next.page) } : {}) });
  };
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Put away</Title>
        {/* Everything that arrived since midnight here, put away or not (docs/labels.md). */}
        <PrintLabels selection={{ received_since: startOfToday(), ...(labId ? { lab_id: labId } : {}) }}>
          Print labels of what arrived today
        </PrintLabels>
      </Group>
      <Text c="dimmed" size="sm">
        Deliveries that arrived without a lot number, an expiry date or a place. Fill in what you know and put each away; what has none is
        put away as it is.
      </Text>
      <Select
        label="Lab"
        data={[{ value: '', label: 'All my labs' }, ...(labs.data ?? []).map((l) => ({ value: l.id, label: l.name }))]}
        value={labId}
        onChange={(value) => go({ lab: value ?? '', page: 1 })}
        allowDeselect={false}
        w={260}
      />
      {list.isError && <ErrorNotice error={list.error} />}
      {list.isPending && <Loading label="Loading what is to put away" />}
      {list.data && list.data.rows.length === 0 && <Text data-testid="put-away-empty">Nothing to put away.</Text>}
      {list.data && list.data.rows.length > 0 && (
        <>
          <Text size="sm" data-testid="put-away-count">
            {list.data.total === 1 ? '1 delivery to put away' : `${list.data.total} deliveries to put away`}
          </Text>
          <Stack gap="xs">
            {list.data.rows.map((row) => (
              <PutAwayRow key={row.instance_id} row={row} />
            ))}
          </Stack>
          {pages > 1 && (
            <Group gap="xs">
              <Button variant="default" size="xs" disabled={page <= 1} onClick={() => go({ page: page - 1 })}>
                Previous
              </Button>
              <Text size="sm">
                Page {page} of {pages}
              </Text>
              <Button variant="default" size="xs" disabled={page >= pages} onClick={() => go({ page: page + 1 })}>
                Next
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}

type PutAwayBody = {
  lot_number?: string | null;
  expiration_date?: string | null;
  location_id?: string | null;
  identifiers?: ScannedIdentifiers;
};

function PutAwayRow({ row }: { row: Row }) {
  const queryClient = useQueryClient();
  const [lot, setLot] = useState(row.lot_number ?? '');
  const [expiry, setExpiry] = useState(row.expiration_date ?? '');
  const [locationId, setLocationId] = useState<string | null>(row.location_id);
  const [identifiers, setIdentifiers] = useState<ScannedIdentifiers | undefined>(undefined);
  const locations = useLabLocations(row.lab.id);
  const putAway = useSubmission({
    name: `put-away-${row.instance_id}`,
    send: (body: PutAwayBody, key) =>
      unwrap(
        api.POST('/inventory-items/{itemId}/instances/{itemInstanceId}/put-away', {
          params: { path: { itemId: row.item_id, itemInstanceId: row.instance_id } },
          body,
          headers: idempotent(key),
        }),
      ),
    onSuccess: () => Promise.all([invalidate(queryClient, '/put-away'), invalidateItem(queryClient, row.item_id)]),
  });
  // Where it goes is checked first (docs/safety.md): the findings before the person confirms.
  const gate = usePlacementGate();
  const expiryValid = expiry === '' || DATE.test(expiry);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!expiryValid) return;
    const body: PutAwayBody = {};
    if ((lot.trim() || null) !== row.lot_number) body.lot_number = lot.trim() || null;
    if ((expiry || null) !== row.expiration_date) body.expiration_date = expiry || null;
    if (locationId !== row.location_id) body.location_id = locationId;
    if (identifiers) body.identifiers = identifiers;
    const to = body.location_id;
    gate.ask(
      async () => (to ? checkPlacement({ location_id: to, instances: [{ instance_id: row.instance_id }] }) : null),
      () => putAway.submit(body),
    );
  };
  const nothing = !lot.trim() && !expiry && !locationId;
  return (
    <Card
      withBorder
      padding="sm"
      component="form"
      onSubmit={submit}
      data-testid="put-away-row"
      aria-label={`To put away: ${row.item_name}`}
    >
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Anchor component={Link} to={`/inventory/items/${row.item_id}`} fw={600}>
            {row.item_name}
          </Anchor>
          <Text size="sm" c="dimmed">
            {row.lab.name} · arrived {new Date(row.arrived_at).toLocaleDateString()}
          </Text>
        </Group>
        <Text size="sm">
          {row.quantity}
          {row.unit_size ? ` × ${row.unit_size}` : ''}
          {row.vendor ? ` · ${row.vendor}` : ''}
          {row.catalog_number ? ` ${row.catalog_number}` : ''}
        </Text>
        <VendorBarcode
          onRead={(filled, reading) => {
            setIdentifiers(identifiersFrom(reading));
            if (filled.lot_number) setLot(filled.lot_number);
            if (filled.expiration_date) setExpiry(filled.expiration_date);
          }}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
          <TextInput size="xs" label="Lot number" value={lot} onChange={(e) => setLot(e.currentTarget.value)} />
          <TextInput
            size="xs"
            type="date"
            label="Expires"
            value={expiry}
            onChange={(e) => setExpiry(e.currentTarget.value)}
            error={!expiryValid ? 'A date such as 2027-03-31' : undefined}
          />
          <LocationSelect
            size="xs"
            label="Location"
            labId={row.lab.id}
            value={locationId}
            onChange={setLocationId}
            disabled={locations.isPending}
          />
        </SimpleGrid>
        {putAway.isError && <PlacementErrorNotice error={putAway.error} title="Not put away" />}
        <PlacementDialog gate={gate} action={`Put away ${row.item_name}`} />
        <Group gap="xs">
          <Button type="submit" size="xs" loading={putAway.isPending || gate.asking} aria-label={`Put away ${row.item_name}`}>
            {nothing ? 'Put away as it is' : 'Put away'}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
