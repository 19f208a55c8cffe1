import { Button, Group, Select, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { majorUnits, ProductSearch, type VendorProduct } from '../components/ProductSearch';
import { fieldError } from '../components/Profile';
import { useLabs, useSpendCodes, useTypes } from '../data/hooks';
import { keyOf } from '../data/keys';
import { DecimalInput, readDecimal } from '../forms/DecimalInput';
import { idempotent, useSubmission } from '../forms/submission';
import { typedMoney } from '../money';

/** Order requests count whole packages (the API takes an integer quantity); 2.5 is refused with a message, never read as 25. */
export const ORDER_QUANTITY_RULES = { integer: true, max: 1_000_000_000 } as const;
/** A price may be zero (a free sample); it is never negative. */
export const PRICE_RULES = { allowZero: true } as const;

/** A new order request: what, from whom, how many, at what price, for which lab. */
export function NewOrderRequestPage() {
  const navigate = useNavigate();
  const [labId, setLabId] = useState<string | null>(null);
  const [typeId, setTypeId] = useState<string | null>(null);
  const [form, setForm] = useState({ name: '', vendor: '', catalog: '', amount: '', currency: 'USD', notes: '' });
  const [quantity, setQuantity] = useState('1');
  const [tried, setTried] = useState(false);
  const [spendCode, setSpendCode] = useState<string | null>(null);
  const [urgent, setUrgent] = useState(false);
  // The catalogue product the fields were filled from; editing its vendor or catalog number leaves it.
  const [product, setProduct] = useState<VendorProduct | null>(null);
  // "Request this" on a shop product (web/src/pages/shop/Product.tsx) opens this page with ?vendor_product_id=…
  const [params] = useSearchParams();
  const fromShop = params.get('vendor_product_id');
  const shopProduct = useQuery({
    queryKey: keyOf('/shop/products/{id}', { path: { id: fromShop } }),
    enabled: fromShop !== null,
    queryFn: () => unwrap(api.GET('/shop/products/{id}', { params: { path: { id: fromShop! } } })),
  });
  const labs = useLabs();
  const types = useTypes(labId);
  const codes = useSpendCodes(labId);
  const parsedQuantity = readDecimal(quantity, ORDER_QUANTITY_RULES);
  const parsedPrice = readDecimal(form.amount, PRICE_RULES);
  // One key per intended request, kept for this history entry: back and Request again replays the first request.
  const create = useSubmission({
    name: 'new-order-request',
    send: async (_, key) => {
      const order = await unwrap(
        api.POST('/order-requests', {
          body: {
            lab_id: labId!,
            type_id: typeId!,
            name: form.name.trim(),
            vendor_name: form.vendor.trim(),
            catalog_number: form.catalog.trim(),
            // A whole number is major units, as a person means it (web/src/money.ts).
            price: typedMoney(parsedPrice.value ?? form.amount, form.currency),
            quantity: Number(parsedQuantity.value),
            ...(product ? { vendor_product_id: product.id } : {}),
            ...(form.notes.trim() ? { notes: form.notes.trim() } : {}),
            ...(spendCode ? { spend_tracking_code: { name: spendCode } } : {}),
          },
          headers: idempotent(key),
        }),
      );
      if (!urgent) return order;
      // POST /order-requests takes no is_urgent (docs/ordering.md): it is a detail, set with PATCH right after. Should
      // that fail, the request exists all the same and its page shows it as not urgent.
      return unwrap(
        api.PATCH('/order-requests/{id}', {
          params: { path: { id: order.id } },
          body: { is_urgent: true },
          headers: idempotent(`${key}:urgent`),
        }),
      ).catch(() => order);
    },
    onSuccess: (order) => navigate(`/order-requests/${order.id}`),
  });
  const set = (key: keyof typeof form) => (e: { currentTarget: { value: string } }) => {
    if (key === 'vendor' || key === 'catalog') setProduct(null);
    setForm({ ...form, [key]: e.currentTarget.value });
  };
  const pick = (p: VendorProduct) => {
    setProduct(p);
    setForm({
      ...form,
      name: p.item_name,
      vendor: p.vendor_name,
      catalog: p.catalog_number,
      amount: majorUnits(p.price),
      currency: p.price.currency,
    });
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: fill the form once, when the linked product arrives
  useEffect(() => {
    if (shopProduct.data) pick(shopProduct.data);
  }, [shopProduct.data]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!parsedQuantity.error && !parsedPrice.error) create.submit();
  };
  return (
    <form onSubmit={submit}>
      <Stack maw={520}>
        <Title order={2}>New order request</Title>
        {create.isError && <ErrorNotice error={create.error} title="Not created" />}
        {shopProduct.isError && <ErrorNotice error={shopProduct.error} title="The linked shop product could not be read" />}
        {labs.isError && <ErrorNotice error={labs.error} />}
        <Select
          label="Lab"
          required
          data={(labs.data ?? []).map((l) => ({ value: l.id, label: l.name }))}
          value={labId}
          onChange={(v) => {
            setLabId(v);
            setTypeId(null);
            setSpendCode(null);
          }}
        />
        <Select
          label="Type"
          required
          disabled={!labId}
          data={(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
          value={typeId}
          onChange={setTypeId}
        />
        <ProductSearch onPick={pick} />
        {product && (
          <Text size="sm" data-testid="shop-product">
            From the shop: {product.item_name} ({product.vendor_name} {product.catalog_number}).{' '}
            <Button size="compact-xs" variant="subtle" onClick={() => setProduct(null)}>
              Not this product
            </Button>
          </Text>
        )}
        <TextInput label="Item" required value={form.name} onChange={set('name')} />
        <Group grow>
          <TextInput label="Vendor" required value={form.vendor} onChange={set('vendor')} />
          <TextInput label="Catalog number" required value={form.catalog} onChange={set('catalog')} />
        </Group>
        {/* Aligned at the top: an error under one field must not push its neighbours down. */}
        <Group grow align="start">
          <DecimalInput label="Quantity" required rules={ORDER_QUANTITY_RULES} showError={tried} value={quantity} onChange={setQuantity} />
          <DecimalInput
            label="Unit price"
            placeholder="e.g. 12.50"
            required
            rules={PRICE_RULES}
            showError={tried}
            value={form.amount}
            onChange={(amount) => setForm({ ...form, amount })}
          />
          <TextInput label="Currency" required maxLength={3} value={form.currency} onChange={set('currency')} />
        </Group>
        <Select
          label="Spend tracking code"
          description="Optional: the lab's code this spend counts against"
          placeholder={labId && codes.isPending ? 'Loading…' : 'None'}
          disabled={!labId}
          data={(codes.data ?? []).map((c) => c.name)}
          value={spendCode}
          onChange={setSpendCode}
          clearable
          error={fieldError(create.error, 'spend_tracking_code.name') ?? fieldError(create.error, 'spend_tracking_code')}
        />
        {codes.isError && <ErrorNotice error={codes.error} title="The lab's spend tracking codes could not be read" />}
        <Switch label="Urgent" checked={urgent} onChange={(e) => setUrgent(e.currentTarget.checked)} />
        <Textarea label="Notes" value={form.notes} onChange={set('notes')} />
        <Group>
          <Button type="submit" loading={create.isPending} disabled={!labId || !typeId}>
            Request
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
