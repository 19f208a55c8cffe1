import { Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { api, LabstockError, unwrap } from '../api';
import { AttachmentsPanel, DownloadLink, type Owner, useAttachments } from '../components/attachments/Attachments';
import { ErrorNotice } from '../components/ErrorNotice';
import { FieldGrid, Loading } from '../components/Fields';
import type { Item } from '../components/instances/fields';
import { useLabLocations } from '../components/instances/LocationSelect';
import { keyOf } from '../data/keys';
import { useItemIdentifiers } from '../scan/identifiers';
import { NotFoundPage } from './NotFound';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * /app/inventory/items/{id}/instances/{instanceId}: one container (a bottle, a box) with what goes with it
 * (docs/attachments.md): its type's safety data sheet first, where a person at the bench looks for it, then the
 * container's own documents (a certificate of analysis for its lot) and the item's.
 */
export function InstancePage() {
  const { id = '', instanceId = '' } = useParams();
  const valid = UUID.test(id) && UUID.test(instanceId);
  const item = useQuery({
    queryKey: keyOf('/inventory-items/{id}', { path: { id } }),
    enabled: valid,
    queryFn: () => unwrap(api.GET('/inventory-items/{id}', { params: { path: { id } } })),
  });
  const identifiers = useItemIdentifiers(id, { enabled: valid });
  if (!valid || (item.error instanceof LabstockError && item.error.status === 404)) return <NotFoundPage what="container" />;
  if (item.isError) return <ErrorNotice error={item.error} />;
  if (item.isPending) return <Loading label="Loading the container" />;
  const instance = item.data.instances.find((i) => i.id === instanceId);
  if (!instance) return <NotFoundPage what="container" />;
  const ids = identifiers.data?.get(instanceId);
  const fields: [string, ReactNode | null][] = [
    ['Lot number', instance.lot_number],
    ['Expires', instance.expiration_date],
    ['Location', instance.location ? <PlaceLink key="place" labId={item.data.lab.id} pathNames={instance.location.pathNames} /> : null],
    ['Quantity', instance.quantity],
    ['Type', item.data.type?.name ?? null],
    ['Lab', item.data.lab.name],
    ['Product number (GTIN)', ids?.gtin ?? null],
    ['Serial number', ids?.serial_number ?? null],
  ];
  return (
    <Stack>
      <Anchor component={Link} to={`/inventory/items/${id}`} size="sm">
        ← {item.data.name}
      </Anchor>
      <Title order={2} data-testid="instance-title">
        {item.data.name}
        {instance.lot_number ? `, lot ${instance.lot_number}` : ''}
      </Title>
      <SafetyDataSheets item={item.data} />
      <FieldGrid fields={fields} />
      <AttachmentsPanel
        owner={{ kind: 'instance', itemId: id, instanceId }}
        title="This container's documents"
        hint="A certificate of analysis for this lot, a photo of the label."
      />
      <AttachmentsPanel owner={{ kind: 'item', itemId: id }} title="The item's documents" />
    </Stack>
  );
}

/**
 * Where the container is, linked to that location's page (its meter, what is kept apart there). The container
 * names its place by path (the contract's shape); the lab's locations, cached, give the path's location.
 */
function PlaceLink({ labId, pathNames }: { labId: string; pathNames: string[] }) {
  const locations = useLabLocations(labId);
  const path = pathNames.join(' / ');
  const place = locations.data?.find((l) => l.pathNames.length === pathNames.length && l.pathNames.every((n, i) => n === pathNames[i]));
  if (!place) return <>{path}</>;
  return (
    <Anchor component={Link} to={`/locations/${place.id}?lab=${labId}`} underline="always">
      {path}
    </Anchor>
  );
}

/** The type's documents, at the top: "Safety data sheet" and the file, one click to open. */
export function SafetyDataSheets({ item }: { item: Item }) {
  const owner: Owner = { kind: 'type', typeId: item.type?.id ?? '' };
  const docs = useAttachments(owner, { enabled: !!item.type });
  if (!item.type) return null;
  return (
    <Card withBorder padding="sm" component="section" aria-label="Safety data sheet" data-testid="safety-data-sheets">
      <Stack gap={4}>
        <Text fw={700}>Safety data sheet</Text>
        {docs.isPending && <Loading label="Loading the safety data sheet" />}
        {docs.isError && <ErrorNotice error={docs.error} />}
        {docs.data?.length === 0 && (
          <Text size="sm">
            No safety data sheet for {item.type.name} yet. The lab's managers add one on the{' '}
            <Anchor component={Link} to={`/types?lab=${item.lab.id}`}>
              types page
            </Anchor>
            .
          </Text>
        )}
        {docs.data?.map((a) => (
          <Text key={a.id} size="sm">
            <DownloadLink a={a} label={docs.data.length === 1 ? `Safety data sheet: ${a.file_name}` : a.file_name} />
          </Text>
        ))}
      </Stack>
    </Card>
  );
}
