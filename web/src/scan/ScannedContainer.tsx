import { Anchor, Badge, Button, Card, Group, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../api';
import { ArchiveInstance } from '../components/ArchiveInstance';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import { instanceLabel } from '../components/instances/fields';
import { LocationSelect } from '../components/instances/LocationSelect';
import { invalidateItem } from '../components/QuantityEditor';
import { keyOf } from '../data/keys';
import type { LabelCode } from '../data/labels';
import { DecimalInput, readDecimal } from '../forms/DecimalInput';
import { idempotent, useSubmission } from '../forms/submission';
import { identifierWords, useItemIdentifiers } from './identifiers';

type Action = 'use' | 'move' | 'archive';

/** The item with its ETag, under the item page's own key, so a change here refreshes it there too (web/src/pages/Item.tsx). */
function useItemWithEtag(id: string) {
  return useQuery({
    queryKey: [...keyOf('/inventory-items/{id}', { path: { id } }), 'etag'],
    queryFn: async () => {
      const call = api.GET('/inventory-items/{id}', { params: { path: { id } } });
      const data = await unwrap(call);
      return { item: data, etag: (await call).response.headers.get('etag') ?? '' };
    },
  });
}

/**
 * A scanned container (or a legacy lab's item) with its one-tap actions (docs/scanning.md): use some (an adjustment
 * with a note), move (pick a location or scan its label), archive. Each is one submission with its own
 * Idempotency-Key (web/src/forms/submission.ts), so a double tap or a retry acts once.
 */
export function ScannedContainer(props: { code: LabelCode; scannedLocationId: string | null }) {
  const { code } = props;
  const loaded = useItemWithEtag(code.item_id ?? '');
  const identifiers = useItemIdentifiers(code.item_id ?? '', { enabled: code.instance_id !== null });
  const [action, setAction] = useState<Action>('use');
  // Scanning a location's label while a container is open picks it as where to move the container.
  useEffect(() => {
    if (props.scannedLocationId) setAction('move');
  }, [props.scannedLocationId]);
  if (loaded.isError) return <ErrorNotice error={loaded.error} />;
  if (loaded.isPending) return <Loading label="Opening the container" />;
  const { item, etag } = loaded.data;
  const instance = code.instance_id ? item.instances.find((i) => i.id === code.instance_id) : undefined;
  const archived = code.archived || (code.instance_id !== null && !instance);
  return (
    <Card withBorder padding="md" data-testid="scanned-container" aria-label={`Scanned: ${item.name}`} component="section">
      <Stack gap="sm">
        <Group justify="space-between" align="start" gap="xs">
          <Stack gap={2}>
            <Title order={3}>{item.name}</Title>
            <Text size="sm" c="dimmed">
              {code.lines.join(' · ')}
            </Text>
            {code.instance_id && identifierWords(identifiers.data?.get(code.instance_id)) && (
              <Text size="sm" c="dimmed" data-testid="scanned-identifiers">
                {identifierWords(identifiers.data?.get(code.instance_id))}
              </Text>
            )}
          </Stack>
          <Badge size="lg" variant="light" data-testid="scanned-quantity">
            {instance ? instance.quantity : item.quantity}
            {item.unit_size ? ` × ${item.unit_size}` : ''}
          </Badge>
        </Group>
        <Anchor component={Link} to={`/inventory/items/${item.id}`} size="sm">
          Open the item’s page
        </Anchor>
        {archived ? (
          <Text data-testid="scanned-archived">This container is archived: it is no longer in the inventory.</Text>
        ) : (
          <>
            <SegmentedControl
              fullWidth
              value={action}
              onChange={(v) => setAction(v as Action)}
              data={[
                { value: 'use', label: 'Use some' },
                ...(instance ? [{ value: 'move', label: 'Move' }] : []),
                ...(instance ? [{ value: 'archive', label: 'Archive' }] : []),
              ]}
              aria-label="What to do"
            />
            {action === 'use' && <UseSome itemId={item.id} instanceId={instance?.id ?? null} />}
            {action === 'move' && instance && (
              <Move
                key={props.scannedLocationId ?? 'pick'}
                itemId={item.id}
                instanceId={instance.id}
                labId={item.lab.id}
                etag={etag}
                initial={props.scannedLocationId}
              />
            )}
            {action === 'archive' && instance && (
              <ArchiveInstance itemId={item.id} instanceId={instance.id} etag={etag} label={instanceLabel(instance)} />
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}

/** "Used 5 mL for the assay": an adjustment by minus the amount, with the note in the history. */
function UseSome(props: { itemId: string; instanceId: string | null }) {
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [tried, setTried] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const parsed = readDecimal(amount);
  const use = useSubmission({
    name: `use-${props.instanceId ?? props.itemId}`,
    renewOnSuccess: true,
    send: (body: { delta: string; note?: string; instance_id?: string }, key) =>
      unwrap(api.POST('/inventory-items/{id}/adjustments', { params: { path: { id: props.itemId } }, body, headers: idempotent(key) })),
    onSuccess: (_data, body) => {
      setDone(`Used ${body.delta.slice(1)}.`);
      setAmount('');
      setNote('');
      setTried(false);
      return invalidateItem(queryClient, props.itemId);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    setDone(null);
    if (!parsed.value) return;
    use.submit({
      delta: `-${parsed.value}`,
      ...(note.trim() ? { note: note.trim() } : {}),
      ...(props.instanceId ? { instance_id: props.instanceId } : {}),
    });
  };
  return (
    <form onSubmit={submit} aria-label="Use some">
      <Stack gap="xs">
        <Group align="flex-start" gap="xs" grow>
          <DecimalInput label="How much was used" value={amount} onChange={setAmount} showError={tried} />
          <TextInput label="Note" placeholder="What for (optional)" value={note} onChange={(e) => setNote(e.currentTarget.value)} />
        </Group>
        {use.isError && <ErrorNotice error={use.error} title="Not recorded" />}
        {done && (
          <Text size="sm" c="green.8" role="status">
            {done}
          </Text>
        )}
        <Button type="submit" loading={use.isPending}>
          Record use
        </Button>
      </Stack>
    </form>
  );
}

/** Moves the container: the location picked here or scanned (its label), saved with the item's ETag. */
function Move(props: { itemId: string; instanceId: string; labId: string; etag: string; initial: string | null }) {
  const queryClient = useQueryClient();
  const [locationId, setLocationId] = useState<string | null>(props.initial);
  const [moved, setMoved] = useState(false);
  const move = useSubmission({
    name: `move-${props.instanceId}`,
    renewOnSuccess: true,
    send: (to: string | null, key) =>
      unwrap(
        api.PATCH('/inventory-items/{itemId}/instances/{itemInstanceId}', {
          params: { path: { itemId: props.itemId, itemInstanceId: props.instanceId }, header: { 'if-match': props.etag } },
          body: { location_id: to },
          headers: idempotent(key),
        }),
      ),
    onSuccess: () => {
      setMoved(true);
      return invalidateItem(queryClient, props.itemId);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMoved(false);
    move.submit(locationId);
  };
  return (
    <form onSubmit={submit} aria-label="Move">
      <Stack gap="xs">
        <LocationSelect
          label="Move to"
          description="Pick a place, or scan its label"
          labId={props.labId}
          value={locationId}
          onChange={setLocationId}
        />
        {move.isError && <ErrorNotice error={move.error} title="Not moved" />}
        {moved && !move.isPending && (
          <Text size="sm" c="green.8" role="status">
            Moved.
          </Text>
        )}
        <Button type="submit" loading={move.isPending} disabled={!locationId}>
          Move here
        </Button>
      </Stack>
    </form>
  );
}
