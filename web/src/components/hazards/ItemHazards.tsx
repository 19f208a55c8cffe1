import { Button, Card, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, describeError, unwrap } from '../../api';
import { invalidate, keyOf } from '../../data/keys';
import { idempotent, useSubmission } from '../../forms/submission';
import { ErrorNotice } from '../ErrorNotice';
import { Loading } from '../Fields';
import { invalidateItem } from '../QuantityEditor';
import { isStale, StaleNotice } from '../StaleNotice';
import { HazardPicker } from './HazardPicker';
import { HazardSummary } from './HazardSummary';
import { StorageAttributes } from './StorageAttributes';

const dateText = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

/**
 * The item's hazards (docs/hazards.md): pictograms, signal word and statements, its own or its type's, and a form to
 * record its own, to record "no hazards", or to go back to its type's. Saved with the item's ETag, like any edit.
 * Below them, how it is stored (acid or base, aqueous): what segregation needs beyond the hazard classes.
 */
export function ItemHazards({ itemId, etag, typeName }: { itemId: string; etag: string; typeName: string | null }) {
  const [editing, setEditing] = useState(false);
  const hazards = useQuery({
    queryKey: [...keyOf('/inventory-items/{id}/hazards', { path: { id: itemId } }), etag],
    queryFn: () => unwrap(api.GET('/inventory-items/{id}/hazards', { params: { path: { id: itemId } } })),
  });
  let body: React.ReactNode;
  if (hazards.isError) body = <ErrorNotice error={hazards.error} />;
  else if (hazards.isPending) body = <Loading label="Loading the hazards" size="sm" />;
  else {
    const h = hazards.data;
    const from =
      h.source === 'type'
        ? `From the type ${typeName ?? ''}`.trim()
        : h.source === 'item'
          ? h.statements.length === 0
            ? 'Recorded on this item: no hazards'
            : 'Recorded on this item'
          : null;
    const who =
      h.updated_by && h.updated_at ? `, set by ${h.updated_by.first_name} ${h.updated_by.last_name} on ${dateText(h.updated_at)}` : '';
    body = editing ? (
      <HazardForm
        key={etag}
        itemId={itemId}
        etag={etag}
        own={h.own_statements}
        typeName={typeName}
        hasTypeStatements={h.type_statements.length > 0}
        onDone={() => setEditing(false)}
      />
    ) : (
      <Stack gap={6}>
        <HazardSummary
          hazards={h}
          empty={h.source === 'item' ? 'No hazards: recorded so on this item.' : 'No hazard statements recorded.'}
        />
        {from && (
          <Text size="xs" c="dimmed">
            {from}
            {who}.
          </Text>
        )}
      </Stack>
    );
  }
  return (
    <Card withBorder padding="sm" component="section" aria-label="Hazards" data-testid="item-hazards">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3}>Hazards</Title>
          {!editing && hazards.isSuccess && (
            <Button size="xs" variant="default" onClick={() => setEditing(true)}>
              Edit hazards
            </Button>
          )}
        </Group>
        {body}
        <StorageAttributes owner={{ kind: 'item', itemId }} />
      </Stack>
    </Card>
  );
}

type Choice = 'own' | 'none' | 'type';

function HazardForm(props: {
  itemId: string;
  etag: string;
  own: string[] | null;
  typeName: string | null;
  hasTypeStatements: boolean;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState<Choice>(
    props.own === null ? (props.typeName ? 'type' : 'own') : props.own.length === 0 ? 'none' : 'own',
  );
  const [codes, setCodes] = useState<string[]>(props.own ?? []);
  const statements = choice === 'own' ? codes : choice === 'none' ? [] : null;
  const save = useSubmission({
    name: `hazards-${props.itemId}`,
    renewOnSuccess: true,
    send: (_: null, key) =>
      unwrap(
        api.PUT('/inventory-items/{id}/hazards', {
          params: { path: { id: props.itemId }, header: { 'if-match': props.etag } },
          body: { hazard_statements: statements },
          headers: idempotent(key),
        }),
      ),
    onSuccess: async () => {
      await Promise.all([invalidateItem(queryClient, props.itemId), invalidate(queryClient, '/hazards/inventory-items')]);
      props.onDone();
    },
  });
  if (save.isError && isStale(save.error)) return <StaleNotice itemId={props.itemId} onReloaded={() => save.reset()} />;
  return (
    <form
      aria-label="Hazard statements"
      onSubmit={(e) => {
        e.preventDefault();
        if (!(choice === 'own' && codes.length === 0)) save.submit(null);
      }}
    >
      <Stack gap="xs">
        <Radio.Group value={choice} onChange={(v) => setChoice(v as Choice)} label="This item's hazards">
          <Stack gap={4} mt={4}>
            <Radio value="own" label="Its own hazard statements" />
            <Radio value="none" label="No hazards" />
            {props.typeName && (
              <Radio
                value="type"
                label={
                  props.hasTypeStatements
                    ? `The same as its type, ${props.typeName}`
                    : `The same as its type, ${props.typeName} (none recorded yet)`
                }
              />
            )}
          </Stack>
        </Radio.Group>
        {choice === 'own' && (
          <HazardPicker label="Hazard statements (from section 2 of the safety data sheet)" value={codes} onChange={setCodes} />
        )}
        {save.isError && (
          <Text c="red" size="sm" role="alert">
            {describeError(save.error)}
          </Text>
        )}
        <Group gap="xs">
          <Button type="submit" size="sm" loading={save.isPending} disabled={choice === 'own' && codes.length === 0}>
            Save hazards
          </Button>
          <Button size="sm" variant="default" onClick={props.onDone}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
