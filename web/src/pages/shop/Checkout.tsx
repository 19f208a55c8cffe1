import { Anchor, Button, Checkbox, Group, Radio, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Fields';
import { useAll, useLabs } from '../../data/hooks';
import { invalidate, setData } from '../../data/keys';
import { idempotent, useSubmission } from '../../forms/submission';
import { formatMoney } from '../OrderRequests';

type Payment = 'CREDIT_CARD' | 'PURCHASE_ORDER';

/**
 * Checkout (POST /shop/orders): a lab's approved requests become one sales order. Only requests made from the
 * catalogue carry a shop product; the API does not return that on a request, so the server's 422 names the others.
 */
export function CheckoutPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [labId, setLabId] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [payment, setPayment] = useState<Payment>('CREDIT_CARD');
  const [po, setPo] = useState('');
  const [isTest, setIsTest] = useState(false);
  const labs = useLabs();
  // Every approved request of the lab (all pages): a lab with more than 100 could not check out the rest.
  const requests = useAll('/order-requests', { query: { lab_id: labId ?? '', status: ['APPROVED'] } }, { enabled: labId !== null });
  // One sales order per Place order: a double-click, a retry or going back and placing it again replays the first.
  const checkout = useSubmission({
    name: 'checkout',
    send: (_, key) =>
      unwrap(
        api.POST('/shop/orders', {
          headers: idempotent(key),
          body: {
            lab_id: labId!,
            order_request_ids: chosen,
            payment_method: payment,
            ...(payment === 'PURCHASE_ORDER' ? { purchase_order_number: po.trim() } : {}),
            ...(isTest ? { is_test: true } : {}),
          },
        }),
      ),
    onSuccess: (order) => {
      setData(queryClient, '/shop/orders/{id}', { id: order.id }, order);
      void invalidate(queryClient, '/order-requests', '/shop/orders');
      navigate(`/shop/orders/${order.id}`);
    },
  });
  const toggle = (id: string, on: boolean) => setChosen(on ? [...chosen, id] : chosen.filter((c) => c !== id));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    checkout.submit();
  };
  return (
    <form onSubmit={submit} aria-label="Checkout">
      <Stack maw={760}>
        <Anchor component={Link} to="/shop" size="sm">
          ← Catalogue
        </Anchor>
        <Title order={2}>Check out</Title>
        {labs.isError && <ErrorNotice error={labs.error} />}
        <Select
          label="Lab"
          required
          maw={360}
          placeholder={labs.isPending ? 'Loading…' : 'Choose a lab'}
          data={(labs.data ?? []).map((l) => ({ value: l.id, label: l.name }))}
          value={labId}
          onChange={(v) => {
            setLabId(v);
            setChosen([]);
          }}
        />
        {labId && requests.isPending && <Loading label="Loading approved requests" size="sm" />}
        {requests.isError && <ErrorNotice error={requests.error} />}
        {requests.data?.length === 0 && (
          <Text data-testid="nothing-to-check-out">
            No approved requests in this lab. Request a product from the{' '}
            <Anchor component={Link} to="/shop">
              catalogue
            </Anchor>{' '}
            and approve it first.
          </Text>
        )}
        {requests.data && requests.data.length > 0 && (
          <Table.ScrollContainer minWidth={560}>
            <Table aria-label="Approved requests" data-testid="checkout-requests">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Buy</Table.Th>
                  <Table.Th>Item</Table.Th>
                  <Table.Th>Catalog number</Table.Th>
                  <Table.Th>Quantity</Table.Th>
                  <Table.Th>Estimate</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {requests.data.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td>
                      <Checkbox
                        aria-label={`Check out ${r.item_name}`}
                        checked={chosen.includes(r.id)}
                        onChange={(e) => toggle(r.id, e.currentTarget.checked)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={`/order-requests/${r.id}`}>
                        {r.item_name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      {r.vendor_name} {r.catalog_number}
                    </Table.Td>
                    <Table.Td>{r.quantity}</Table.Td>
                    <Table.Td>{formatMoney(r.total_price)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Text size="sm" c="dimmed">
          The shop prices each line from its catalogue when you place the order, and adds shipping, handling and tax.
        </Text>
        <Radio.Group label="Payment" value={payment} onChange={(v) => setPayment(v as Payment)}>
          <Group mt="xs">
            <Radio value="CREDIT_CARD" label="Credit card" />
            <Radio value="PURCHASE_ORDER" label="Purchase order" />
          </Group>
        </Radio.Group>
        {payment === 'PURCHASE_ORDER' && (
          <TextInput label="Purchase order number" required maw={360} value={po} onChange={(e) => setPo(e.currentTarget.value)} />
        )}
        <Checkbox label="Test order (fulfilled, never billed)" checked={isTest} onChange={(e) => setIsTest(e.currentTarget.checked)} />
        {checkout.isError && <ErrorNotice error={checkout.error} title="Not checked out" />}
        <Group>
          <Button type="submit" loading={checkout.isPending} disabled={!labId || chosen.length === 0}>
            Place order
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
