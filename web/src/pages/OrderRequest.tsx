import { Badge, Button, Group, Select, Stack, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import { api, LabstockError, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { FieldGrid, Loading } from '../components/Fields';
import { OrderActions } from '../components/OrderActions';
import { OrderDetails } from '../components/OrderDetails';
import { OrderHistory } from '../components/OrderHistory';
import { STATUS_COLOR } from '../orders';
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
    queryKey: ['order-request', id],
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
        <Badge color={STATUS_COLOR[o.status]} data-testid="order-status">
          {o.status}
        </Badge>
        {o.is_urgent && (
          <Badge color="red.9" variant="outline" data-testid="order-urgent">
            Urgent
          </Badge>
        )}
      </Group>
      <FieldGrid fields={fields} />
      <OrderActions order={o} onReceive={() => setReceiving(true)} receiving={receiving} />
      {receiving && <ReceiveForm orderId={o.id} labId={o.lab.id} usesInstances={o.lab.uses_instances} onDone={() => setReceiving(false)} />}
      <OrderDetails order={o} />
      <OrderHistory orderId={o.id} />
    </Stack>
  );
}

/** Receiving: the goods go into the lab's inventory with their lot, expiry and (labs that use instances) location. */
function ReceiveForm(props: { orderId: string; labId: string; usesInstances: boolean; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [lot, setLot] = useState('');
  const [expiry, setExpiry] = useState('');
  const [locationId, setLocationId] = useState<string | null>(null);
  const locations = useQuery({
    queryKey: ['locations', props.labId],
    enabled: props.usesInstances,
    queryFn: () => unwrap(api.GET('/labs/{id}/locations', { params: { path: { id: props.labId } } })),
  });
  const receive = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/order-requests/{id}/receive', {
          params: { path: { id: props.orderId } },
          body: {
            ...(lot.trim() ? { lot_number: lot.trim() } : {}),
            ...(expiry ? { expiration_date: expiry } : {}),
            ...(locationId ? { location_id: locationId } : {}),
          },
        }),
      ),
    onSuccess: (data) => {
      queryClient.setQueryData(['order-request', props.orderId], data);
      props.onDone();
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['order-requests'] }),
        queryClient.invalidateQueries({ queryKey: ['inventory-items'] }),
      ]);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    receive.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Receive">
      <Stack gap="xs" maw={420}>
        <Title order={3}>Receive into the inventory</Title>
        <TextInput label="Lot number" value={lot} onChange={(e) => setLot(e.currentTarget.value)} />
        <TextInput label="Expires on" type="date" value={expiry} onChange={(e) => setExpiry(e.currentTarget.value)} />
        {props.usesInstances && (
          <Select
            label="Location"
            placeholder={locations.isPending ? 'Loading…' : 'Choose where it goes'}
            data={(locations.data ?? []).map((l) => ({ value: l.id, label: l.pathNames.join(' / ') }))}
            value={locationId}
            onChange={setLocationId}
            searchable
          />
        )}
        {receive.isError && <ErrorNotice error={receive.error} title="Not received" />}
        <Group>
          <Button type="submit" color="green" loading={receive.isPending}>
            Receive
          </Button>
          <Button variant="default" onClick={props.onDone}>
            Not now
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
