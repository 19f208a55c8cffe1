import type { OrderRequest } from '@labstock/client';
import { Anchor, Badge, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, LabstockError, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { FieldGrid, Loading } from '../components/Fields';
import { useLabLocations } from '../components/instances/LocationSelect';
import { OrderActions } from '../components/OrderActions';
import { OrderDetails } from '../components/OrderDetails';
import { OrderHistory } from '../components/OrderHistory';
import { PlacementErrorNotice } from '../components/placement/Findings';
import { checkPlacement, usePlacementGate } from '../components/placement/gate';
import { PlacementDialog } from '../components/placement/PlacementDialog';
import { MAX_PER_PAGE } from '../data/hooks';
import { invalidateOrder, keyOf, setData } from '../data/keys';
import { DecimalInput, readDecimal } from '../forms/DecimalInput';
import { idempotent, useSubmission } from '../forms/submission';
import { STATUS_COLOR, statusLabel } from '../orders';
import { identifiersFrom, type ScannedIdentifiers, VendorBarcode } from '../scan/VendorBarcode';
import { NotFoundPage } from './NotFound';
import { formatMoney } from './OrderRequests';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One order request (its app_url): what, how many, for how much, the moves the transition table and the lab's
 * approval rule allow, and its details (docs/ordering.md).
 */
export function OrderRequestPage() {
  const { id = '' } = useParams();
  const order = useQuery({
    queryKey: keyOf('/order-requests/{id}', { path: { id } }),
    enabled: UUID.test(id),
    queryFn: () => unwrap(api.GET('/order-requests/{id}', { params: { path: { id } } })),
  });
  const [receiving, setReceiving] = useState(false);
  if (!UUID.test(id) || (order.error instanceof LabstockError && order.error.status === 404)) return <NotFoundPage what="order request" />;
  if (order.isError) return <ErrorNotice error={order.error} />;
  if (order.isPending) {
    return <Loading label="Loading the request" />;
  }
  const o = order.data;
  const fields: [string, string][] = [
    ['Vendor', o.vendor_name],
    ['Catalog number', o.catalog_number],
    ['Quantity', o.quantity],
    ['Unit price', `${o.unit_price} ${o.total_price.currency}`],
    ['Total', formatMoney(o.total_price)],
    ['Lab', o.lab.name],
    ['Type', o.type.name],
    ['Requested by', `${o.requested_by.first_name} ${o.requested_by.last_name}`],
  ];
  return (
    <Stack>
      <Group>
        <Title order={2} data-testid="order-name">
          {o.item_name}
        </Title>
        <Badge color={STATUS_COLOR[o.status]} tt="none" data-testid="order-status">
          {statusLabel(o.status)}
        </Badge>
        {o.is_urgent && (
          <Badge color="red.9" variant="outline" tt="none" data-testid="order-urgent">
            Urgent
          </Badge>
        )}
      </Group>
      <FieldGrid fields={fields} />
      <Delivery order={o} />
      <OrderActions order={o} onReceive={() => setReceiving(true)} receiving={receiving} />
      {receiving && <ReceiveForm order={o} onDone={() => setReceiving(false)} />}
      <OrderDetails order={o} />
      <OrderHistory orderId={o.id} />
    </Stack>
  );
}

/** What arrived (GET /order-requests/{id}/delivery): every move and receipt reads it again (invalidateOrder). */
function useDelivery(id: string) {
  return useQuery({
    queryKey: keyOf('/order-requests/{id}/delivery', { path: { id } }),
    queryFn: () => unwrap(api.GET('/order-requests/{id}/delivery', { params: { path: { id } } })),
  });
}

/** The expected day, how much arrived, and the item it went into. */
function Delivery({ order }: { order: OrderRequest }) {
  const delivery = useDelivery(order.id);
  if (delivery.isError) return <ErrorNotice error={delivery.error} title="What arrived could not be read" />;
  const d = delivery.data;
  if (!d) return null;
  const partly = d.received_quantity !== '0' && d.remaining_quantity !== '0';
  return (
    <Stack gap={4} data-testid="delivery">
      {d.expected_delivery_date && order.status !== 'RECEIVED' && (
        <Text size="sm">Expected on {new Date(`${d.expected_delivery_date}T00:00:00`).toLocaleDateString()}</Text>
      )}
      {partly && (
        <Text size="sm" fw={600}>
          {d.received_quantity} of {d.quantity} received; {d.remaining_quantity} still to come
        </Text>
      )}
      {d.item_id && (
        <Text size="sm">
          In the inventory:{' '}
          <Anchor component={Link} to={`/inventory/items/${d.item_id}`} data-testid="received-item">
            {order.item_name}
          </Anchor>
        </Text>
      )}
    </Stack>
  );
}

/**
 * Receiving: all that is still to come or a part of it, into the lab's inventory with its lot, expiry and (labs that
 * use instances) location; the request stays open for the rest (docs/ordering.md).
 */
function ReceiveForm({ order, onDone }: { order: OrderRequest; onDone: () => void }) {
  const queryClient = useQueryClient();
  const delivery = useDelivery(order.id);
  const remaining = delivery.data?.remaining_quantity ?? order.quantity;
  const [quantity, setQuantity] = useState(remaining);
  const [tried, setTried] = useState(false);
  const [lot, setLot] = useState('');
  const [expiry, setExpiry] = useState('');
  const [locationId, setLocationId] = useState<string | null>(null);
  const [identifiers, setIdentifiers] = useState<ScannedIdentifiers | undefined>(undefined);
  const usesInstances = order.lab.uses_instances;
  const locations = useLabLocations(order.lab.id, { enabled: usesInstances });
  const rules = { integer: true, max: remaining };
  // Opened below the buttons: brought into view, so on a phone the fields are where the person looks.
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    form.current?.scrollIntoView({ block: 'start' });
  }, []);
  const receive = useSubmission<OrderRequest, number>({
    name: 'receive',
    renewOnSuccess: true,
    send: (count, key) =>
      unwrap(
        api.POST('/order-requests/{id}/receive', {
          params: { path: { id: order.id } },
          body: {
            quantity: count,
            ...(lot.trim() ? { lot_number: lot.trim() } : {}),
            ...(expiry ? { expiration_date: expiry } : {}),
            ...(locationId ? { location_id: locationId } : {}),
            // Kept with the container in a lab that uses them (a lab without instances has no container for them).
            ...(identifiers && usesInstances ? { identifiers } : {}),
          },
          headers: idempotent(key),
        }),
      ),
    onSuccess: (data) => {
      setData(queryClient, '/order-requests/{id}', { id: order.id }, data);
      onDone();
      // What arrived without a lot, an expiry or a place is now to put away (the home and navigation count it).
      return invalidateOrder(queryClient, order.id, '/inventory-items', '/put-away');
    },
  });
  // Where it goes is checked first (docs/safety.md) when the lab holds the product already (an item of the same vendor
  // and catalog number); the server checks every receipt again as it writes, and refuses in block mode.
  const gate = usePlacementGate();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    const parsed = readDecimal(quantity, rules);
    if (parsed.value === undefined) return;
    const count = Number(parsed.value);
    gate.ask(
      async () => {
        if (!locationId) return null;
        const itemId = delivery.data?.item_id ?? (await itemOfProduct(order));
        return itemId ? checkPlacement({ location_id: locationId, items: [{ item_id: itemId, quantity: String(count) }] }) : null;
      },
      () => receive.submit(count),
    );
  };
  return (
    <form onSubmit={submit} aria-label="Receive" ref={form}>
      <Stack gap="xs" maw={420}>
        <Title order={3}>Receive into the inventory</Title>
        <DecimalInput
          label="How many arrived"
          description={`${remaining} of ${order.quantity} still to come`}
          value={quantity}
          onChange={setQuantity}
          rules={rules}
          showError={tried}
        />
        <VendorBarcode
          takesPageScans
          onRead={(filled, reading) => {
            setIdentifiers(identifiersFrom(reading));
            if (filled.lot_number) setLot(filled.lot_number);
            if (filled.expiration_date) setExpiry(filled.expiration_date);
          }}
        />
        <TextInput label="Lot number" value={lot} onChange={(e) => setLot(e.currentTarget.value)} />
        <TextInput label="Expires on" type="date" value={expiry} onChange={(e) => setExpiry(e.currentTarget.value)} />
        {usesInstances && (
          <Select
            label="Location"
            placeholder={locations.isPending ? 'Loading…' : 'Choose where it goes'}
            data={(locations.data ?? []).map((l) => ({ value: l.id, label: l.pathNames.join(' / ') }))}
            value={locationId}
            onChange={setLocationId}
            searchable
          />
        )}
        {receive.isError && <PlacementErrorNotice error={receive.error} title="Not received" />}
        <PlacementDialog gate={gate} action="Receive" />
        <Group>
          <Button type="submit" color="green" loading={receive.isPending || gate.asking}>
            Receive
          </Button>
          <Button variant="default" onClick={onDone}>
            Not now
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * The lab's item receiving adds to, as the server chooses it (src/inventory/repository.ts findItemByCatalog): same
 * vendor and catalog number, the first created (ids are time-ordered). Undefined: a product the lab does not hold.
 */
async function itemOfProduct(order: OrderRequest): Promise<string | undefined> {
  // Every page of the search (a common catalog number can match more than one page of items), none cut at 100.
  const ids: string[] = [];
  const query = { lab_id: order.lab.id, q: order.catalog_number, per_page: MAX_PER_PAGE };
  for await (const i of api.paginate('/inventory-items', { params: { query } })) {
    if (i.vendor === order.vendor_name && i.catalog_number === order.catalog_number) ids.push(i.id);
  }
  return ids.sort()[0];
}
