import { Badge, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Action } from './FulfilmentActions';
import { canBackorder, canCancel, canShip, type FulfilmentLine, LINE_COLOR, lineStatusTitle } from './shop';

// One line of the fulfilment queue (web/src/pages/shop/Fulfilment.tsx): a table row on a wide screen, a card on a
// phone, where a row's status and buttons would sit off-screen in the table's sideways scroll.

export interface LineProps {
  line: FulfilmentLine;
  onAction: (kind: Action['kind']) => void;
  onDeliver: (shipmentId: string) => void;
  delivering: string | null;
}

export function LineRow(props: LineProps) {
  const { line } = props;
  return (
    <Table.Tr data-testid="fulfilment-line">
      <Table.Td>
        {line.sales_order.key}
        {line.sales_order.is_test && (
          <Badge ml="xs" color="gray" variant="outline">
            Test
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        {line.product.item_name}
        <Text size="xs" c="dimmed">
          {line.product.vendor_name} {line.product.catalog_number}
        </Text>
      </Table.Td>
      <Table.Td>
        {line.ship_to.organization.name}
        <Text size="xs" c="dimmed">
          {line.ship_to.lab.name}
        </Text>
      </Table.Td>
      <Table.Td>
        {line.shipped} of {line.quantity}
      </Table.Td>
      <Table.Td>
        <Badge color={LINE_COLOR[line.status]}>{lineStatusTitle(line.status)}</Badge>
        {line.backordered_expected_at && <Text size="xs">expected {line.backordered_expected_at}</Text>}
      </Table.Td>
      <Table.Td>
        <Shipments {...props} />
      </Table.Td>
      <Table.Td>
        <Actions {...props} />
      </Table.Td>
    </Table.Tr>
  );
}

/** The line as a card: what it is and where it goes, its status, and the buttons, all within a phone's width. */
export function LineCard(props: LineProps & { children?: ReactNode }) {
  const { line } = props;
  return (
    <Paper withBorder p="sm" data-testid="fulfilment-line">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Text fw={700}>
            {line.sales_order.key}
            {line.sales_order.is_test && (
              <Badge ml="xs" color="gray" variant="outline">
                Test
              </Badge>
            )}
          </Text>
          <Badge color={LINE_COLOR[line.status]}>{lineStatusTitle(line.status)}</Badge>
        </Group>
        <Text size="sm">
          {line.product.item_name}{' '}
          <Text span size="xs" c="dimmed">
            {line.product.vendor_name} {line.product.catalog_number}
          </Text>
        </Text>
        <Text size="sm">
          To {line.ship_to.organization.name}, {line.ship_to.lab.name} · shipped {line.shipped} of {line.quantity}
          {line.backordered_expected_at && ` · expected ${line.backordered_expected_at}`}
        </Text>
        <Shipments {...props} />
        <Actions {...props} />
        {props.children}
      </Stack>
    </Paper>
  );
}

function Shipments(props: LineProps) {
  return (
    <Stack gap={4}>
      {props.line.shipments.map((s) => (
        <Group key={s.id} gap="xs">
          <Text size="sm">
            {s.carrier} {s.tracking} ×{s.quantity}
          </Text>
          {s.delivered_at ? (
            <Badge color="green" variant="light">
              Delivered
            </Badge>
          ) : (
            <Button size="compact-xs" variant="light" loading={props.delivering === s.id} onClick={() => props.onDeliver(s.id)}>
              Mark delivered
            </Button>
          )}
        </Group>
      ))}
    </Stack>
  );
}

function Actions({ line, onAction }: LineProps) {
  return (
    <Group gap={4} wrap="nowrap">
      {canShip(line) && (
        <Button size="compact-sm" onClick={() => onAction('ship')}>
          Ship…
        </Button>
      )}
      {canBackorder(line) && (
        <Button size="compact-sm" variant="default" onClick={() => onAction('backorder')}>
          Backorder…
        </Button>
      )}
      {canCancel(line) && (
        <Button size="compact-sm" variant="light" color="red" onClick={() => onAction('cancel')}>
          Cancel…
        </Button>
      )}
    </Group>
  );
}
