import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import type { Column } from '../../data/DataTable';
import type { Action } from './FulfilmentActions';
import { canBackorder, canCancel, canShip, type FulfilmentLine, LINE_COLOR, lineStatusTitle } from './shop';

// One line of the fulfilment queue (web/src/pages/shop/Fulfilment.tsx): a table row on a wide screen, a card on a
// phone (DataTable), where a row's status and buttons would sit off-screen in the table's sideways scroll.

export interface LineProps {
  line: FulfilmentLine;
  onAction: (kind: Action['kind']) => void;
  onDeliver: (shipmentId: string) => void;
  delivering: string | null;
}

/**
 * The queue's columns for the shared DataTable (docs/web.md, "Data layer"): a table row on a wide screen; on a phone
 * a card headed by the order's key, with the status, the shipments and the buttons within the screen's width.
 */
export function lineColumns(props: (line: FulfilmentLine) => LineProps): Column<FulfilmentLine>[] {
  return [
    {
      key: 'order',
      header: 'Order',
      phone: 'title',
      cell: (line) => (
        <Text span fw={600} size="sm">
          {line.sales_order.key}
          {line.sales_order.is_test && (
            <Badge ml="xs" color="gray" variant="outline">
              Test
            </Badge>
          )}
        </Text>
      ),
    },
    {
      key: 'product',
      header: 'Product',
      cell: (line) => (
        <>
          {line.product.item_name}
          <Text size="xs" c="dimmed">
            {line.product.vendor_name} {line.product.catalog_number}
          </Text>
        </>
      ),
    },
    {
      key: 'ship-to',
      header: 'Ship to',
      cell: (line) => (
        <>
          {line.ship_to.organization.name}
          <Text size="xs" c="dimmed">
            {line.ship_to.lab.name}
          </Text>
        </>
      ),
    },
    { key: 'shipped', header: 'Shipped', cell: (line) => `${line.shipped} of ${line.quantity}` },
    {
      key: 'status',
      header: 'Status',
      cell: (line) => (
        <>
          <Badge color={LINE_COLOR[line.status]}>{lineStatusTitle(line.status)}</Badge>
          {line.backordered_expected_at && <Text size="xs">expected {line.backordered_expected_at}</Text>}
        </>
      ),
    },
    { key: 'shipments', header: 'Shipments', cell: (line) => <Shipments {...props(line)} /> },
    { key: 'actions', header: 'Actions', bare: true, cell: (line) => <Actions {...props(line)} /> },
  ];
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
