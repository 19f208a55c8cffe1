import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, LabstockError, unwrap } from '../api';
import { AdjustmentForm } from '../components/AdjustmentForm';
import { AttachmentsPanel } from '../components/attachments/Attachments';
import { ControlledSection } from '../components/controlled/ControlledSection';
import { ErrorNotice } from '../components/ErrorNotice';
import { FieldGrid, Loading } from '../components/Fields';
import { ItemHazards } from '../components/hazards/ItemHazards';
import { ItemEditForm } from '../components/ItemEditForm';
import { ItemHistory } from '../components/ItemHistory';
import { AddInstance } from '../components/instances/AddInstance';
import type { Item } from '../components/instances/fields';
import { InstanceCard } from '../components/instances/InstanceCard';
import { useLabLocations } from '../components/instances/LocationSelect';
import { MinimumQuantity } from '../components/MinimumQuantity';
import { QuantityEditor } from '../components/QuantityEditor';
import { ReorderForm } from '../components/ReorderForm';
import { amountWords, useItemAmount } from '../data/amounts';
import { keyOf } from '../data/keys';
import { useCodesOf } from '../data/labels';
import { PrintLabels } from '../labels/PrintLabels';
import { SafetyDataSheets } from './Instance';
import { NotFoundPage } from './NotFound';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An item's page (its app_url): what it is, how much there is, and where its instances are. */
export function ItemPage() {
  const { id = '' } = useParams();
  // Another item's page starts afresh (not in the edit or reorder form of the previous one).
  return <ItemView key={id} id={id} />;
}

function ItemView({ id }: { id: string }) {
  const [mode, setMode] = useState<'view' | 'edit' | 'reorder'>('view');
  const item = useQuery({
    // The item with its ETag (not the bare item the path answers), so the key says so after the path's own.
    queryKey: [...keyOf('/inventory-items/{id}', { path: { id } }), 'etag'],
    enabled: UUID.test(id),
    queryFn: async () => {
      const call = api.GET('/inventory-items/{id}', { params: { path: { id } } });
      const data = await unwrap(call);
      // The ETag goes with every change, so a change made meanwhile by someone else is a 412, not overwritten.
      return { item: data, etag: (await call).response.headers.get('etag') ?? '' };
    },
  });
  if (!UUID.test(id) || (item.error instanceof LabstockError && item.error.status === 404)) return <NotFoundPage what="item" />;
  if (item.isError) return <ErrorNotice error={item.error} />;
  if (item.isPending) {
    return <Loading label="Loading the item" />;
  }
  const { item: it, etag } = item.data;
  return <ItemDetails it={it} etag={etag} mode={mode} setMode={setMode} />;
}

function ItemDetails({
  it,
  etag,
  mode,
  setMode,
}: {
  it: Item;
  etag: string;
  mode: string;
  setMode: (m: 'view' | 'edit' | 'reorder') => void;
}) {
  // Label codes (docs/labels.md): a legacy item's own, or each container's.
  const codes = useCodesOf({ item_id: it.id });
  const codeOf = new Map((codes.data ?? []).map((c) => [c.instance_id ?? c.item_id, c.code]));
  const ownCode = it.lab.uses_instances ? undefined : codeOf.get(it.id);
  // Quantity × unit size in its unit family (docs/hazard-reports.md): "unknown" when the size cannot be read.
  const amount = useItemAmount(it.id, etag);
  const fields: [string, string | null][] = [
    ['Vendor', it.vendor],
    ['Catalog number', it.catalog_number],
    ['CAS number', it.cas_number],
    ['Quantity', it.quantity],
    ['Unit size', it.unit_size],
    ['Amount', amount.isError ? 'not available' : amountWords(amount.data?.total)],
    ['Price', it.price],
    ['Type', it.type?.name ?? null],
    ['Lab', it.lab.name],
    ['Serial number', it.serial_number],
    ...(it.lab.uses_instances
      ? []
      : ([
          ['Lot number', it.lot_number],
          ['Expires', it.expiration_date],
          ['Location', [it.location?.name, it.sublocation?.name].filter(Boolean).join(' / ') || null],
          ['Label code', ownCode ?? null],
        ] as [string, string | null][])),
  ];
  return (
    <Stack>
      <Anchor component={Link} to={`/inventory?lab=${it.lab.id}`} size="sm">
        ← {it.lab.name}
      </Anchor>
      <Group justify="space-between">
        <Group>
          <Title order={2} data-testid="item-name">
            {it.name}
          </Title>
        </Group>
        {mode === 'view' && (
          <Group gap="xs">
            <Button variant="default" onClick={() => setMode('edit')}>
              Edit
            </Button>
            <Button variant="light" onClick={() => setMode('reorder')}>
              Reorder…
            </Button>
            <PrintLabels selection={{ item_ids: [it.id] }}>{it.lab.uses_instances ? 'Print labels' : 'Print label'}</PrintLabels>
          </Group>
        )}
      </Group>
      {mode === 'edit' ? <ItemEditForm item={it} etag={etag} onDone={() => setMode('view')} /> : <FieldGrid fields={fields} />}
      {mode === 'reorder' && <ReorderForm item={it} onCancel={() => setMode('view')} />}
      <ItemHazards itemId={it.id} etag={etag} typeName={it.type?.name ?? null} />
      <SafetyDataSheets item={it} />
      <AttachmentsPanel owner={{ kind: 'item', itemId: it.id }} title="Documents" hint="A manual, a quote, a photo: kept with the item." />
      <Title order={3}>Minimum quantity</Title>
      <MinimumQuantity itemId={it.id} etag={etag} />
      {it.lab.uses_instances && <Instances item={it} etag={etag} codes={codeOf} />}
      {!it.lab.uses_instances && (
        <Group gap="xs">
          <Text size="sm">Set the quantity:</Text>
          <QuantityEditor key={etag} itemId={it.id} current={it.quantity} etag={etag} label="Quantity" />
        </Group>
      )}
      <ControlledSection key={`controlled-${etag}`} itemId={it.id} />
      <Title order={3}>Adjust</Title>
      <AdjustmentForm key={etag} item={it} />
      <Title order={3}>History</Title>
      <ItemHistory itemId={it.id} />
    </Stack>
  );
}

/**
 * The item's instances in a lab that uses them, each a card with its quantity, lot, expiry and location saved in one
 * step and Archive with a reason; and "Add an instance" for a bottle found on a shelf.
 */
function Instances({ item, etag, codes }: { item: Item; etag: string; codes: Map<string | null, string> }) {
  const [adding, setAdding] = useState(false);
  // ?instance=: the container a scanned label opened (docs/labels.md), brought into view and marked.
  const [params] = useSearchParams();
  const focused = params.get('instance');
  const locations = useLabLocations(item.lab.id);
  // The item shows each instance's location as its path; the lab's tree gives the id the location field edits.
  const idOfPath = new Map((locations.data ?? []).map((l) => [l.pathNames.join('\u0000'), l.id]));
  return (
    <>
      <Group justify="space-between">
        <Title order={3}>Instances</Title>
        {!adding && (
          <Button variant="light" onClick={() => setAdding(true)}>
            Add an instance
          </Button>
        )}
      </Group>
      {adding && <AddInstance itemId={item.id} labId={item.lab.id} onDone={() => setAdding(false)} />}
      {locations.isError && <ErrorNotice error={locations.error} />}
      {locations.isPending ? (
        <Loading label="Loading the lab's locations" />
      ) : item.instances.length === 0 ? (
        <Text>No active instances.</Text>
      ) : (
        <Stack gap="xs" data-testid="instances-table">
          {item.instances.map((instance) => (
            <InstanceCard
              key={`${instance.id}-${etag}`}
              itemId={item.id}
              labId={item.lab.id}
              instance={instance}
              etag={etag}
              locationId={instance.location ? (idOfPath.get(instance.location.pathNames.join('\u0000')) ?? null) : null}
              code={codes.get(instance.id)}
              focused={instance.id === focused}
            />
          ))}
        </Stack>
      )}
    </>
  );
}
