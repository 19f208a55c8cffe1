import { Badge, Button, Card, Checkbox, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api';
import type { StocktakeLine } from '../../data/stocktake';
import { DecimalInput, readDecimal } from '../../forms/DecimalInput';
import { idempotent, useSubmission } from '../../forms/submission';
import { ErrorNotice } from '../ErrorNotice';
import { refreshStocktake } from './refresh';

const path = (l: { pathNames: string[] } | null) => (l ? l.pathNames.join(' / ') : 'no place');

/** What a line says, in words (docs/web.md, "Their words"). */
export function stateWords(line: StocktakeLine, open: boolean): { text: string; color: string } {
  switch (line.state) {
    case 'missing':
      return open ? { text: 'Not counted yet', color: 'gray' } : { text: 'Missing', color: 'red' };
    case 'unexpected':
      return { text: `Found here, recorded at ${path(line.recorded_location)}`, color: 'orange' };
    case 'different':
      return { text: `Counted ${line.counted_quantity}, recorded ${line.recorded_quantity}`, color: 'yellow' };
    default:
      return { text: 'As recorded', color: 'green' };
  }
}

/**
 * One container of the count (or, in a count of a lab without instances, one item): ticked as there, or counted
 * with what is in it. Each tick and each quantity is its own submission (one Idempotency-Key each), and the list is
 * read again after it, with the other counters' counts.
 */
export function LineCard({ stocktakeId, line, open }: { stocktakeId: string; line: StocktakeLine; open: boolean }) {
  const queryClient = useQueryClient();
  const [quantity, setQuantity] = useState(line.counted_quantity ?? '');
  const [tried, setTried] = useState(false);
  const instanceId = line.instance_id;
  const itemParams = { path: { id: stocktakeId, itemId: line.item_id } };
  const count = useSubmission({
    name: `count-${instanceId ?? line.item_id}`,
    renewOnSuccess: true,
    send: (body: { quantity?: string | null; location_id?: string | null }, key) =>
      instanceId
        ? unwrap(
            api.PUT('/stocktakes/{id}/counts/{instanceId}', {
              params: { path: { id: stocktakeId, instanceId } },
              body,
              headers: idempotent(key),
            }),
          )
        : unwrap(
            api.PUT('/stocktakes/{id}/items/{itemId}', { params: itemParams, body: { quantity: body.quantity }, headers: idempotent(key) }),
          ),
    onSuccess: () => refreshStocktake(queryClient, stocktakeId),
  });
  const uncount = useSubmission({
    name: `uncount-${instanceId ?? line.item_id}`,
    renewOnSuccess: true,
    send: () =>
      instanceId
        ? unwrap(api.DELETE('/stocktakes/{id}/counts/{instanceId}', { params: { path: { id: stocktakeId, instanceId } } }))
        : unwrap(api.DELETE('/stocktakes/{id}/items/{itemId}', { params: itemParams })),
    onSuccess: () => refreshStocktake(queryClient, stocktakeId),
  });
  const parsed = readDecimal(quantity);
  const keepPlace = line.found_location_id ? { location_id: line.found_location_id } : {};
  const saveQuantity = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (parsed.value !== undefined) count.submit({ quantity: parsed.value, ...keepPlace });
  };
  const words = stateWords(line, open);
  const name = `${line.item_name}${line.lot_number ? `, lot ${line.lot_number}` : ''}`;
  return (
    <Card withBorder padding="sm" data-testid="count-line" data-state={line.state}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="start">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {name}
            </Text>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {line.recorded_quantity}
              {line.unit_size ? ` × ${line.unit_size}` : ''} at {path(line.recorded_location)}
              {line.expiration_date ? ` · expires ${line.expiration_date}` : ''}
            </Text>
            {line.found_location && line.state === 'unexpected' && (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                Found at {path(line.found_location)}
              </Text>
            )}
            {line.counted_by && (
              <Text size="xs" c="dimmed">
                Counted by {line.counted_by.first_name} {line.counted_by.last_name}
              </Text>
            )}
          </Stack>
          <Badge
            color={words.color}
            variant="light"
            // Orange's and yellow's words are below 4.5:1 on their light fill (axe): the text takes the text colour.
            c={words.color === 'orange' || words.color === 'yellow' ? 'var(--mantine-color-text)' : undefined}
            style={{ flexShrink: 0, maxWidth: '45%' }}
            title={words.text}
          >
            {line.state === 'unexpected' ? 'Unexpected' : words.text}
          </Badge>
        </Group>
        {open && (
          <Group align="end" gap="xs" wrap="wrap">
            <Checkbox
              mb={8}
              label="It is here"
              checked={line.counted}
              disabled={count.isPending || uncount.isPending}
              onChange={(e) => (e.currentTarget.checked ? count.submit({ ...keepPlace }) : uncount.submit())}
            />
            <form onSubmit={saveQuantity} style={{ display: 'flex', gap: 8, alignItems: 'end' }}>
              <DecimalInput
                label="Counted quantity"
                value={quantity}
                onChange={setQuantity}
                showError={tried}
                w={130}
                size="xs"
                aria-label={`Counted quantity of ${name}`}
              />
              <Button type="submit" size="xs" variant="light" loading={count.isPending} disabled={quantity.trim() === ''}>
                Save
              </Button>
            </form>
          </Group>
        )}
        {count.isError && <ErrorNotice error={count.error} title="Not counted" />}
        {uncount.isError && <ErrorNotice error={uncount.error} title="Not taken back" />}
      </Stack>
    </Card>
  );
}
