import type { components } from '@labstock/client';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api';
import { keyOf } from '../data/keys';
import { ErrorNotice } from './ErrorNotice';
import { Loading } from './Fields';

export type VendorProduct = components['schemas']['VendorProduct'];

/** Money in minor units ("27900" USD) as the major-unit string a person types ("279.00"). */
export function majorUnits(money: { amount: string; currency: string }): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency: money.currency }).resolvedOptions().maximumFractionDigits ?? 2;
  if (digits === 0) return money.amount;
  const padded = money.amount.padStart(digits + 1, '0');
  return `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/** Searches the service's catalogue (GET /shop/products: every word in name, catalog number or vendor). */
export function ProductSearch({ onPick }: { onPick: (product: VendorProduct) => void }) {
  const [text, setText] = useState('');
  const [q] = useDebouncedValue(text.trim(), 250);
  const products = useQuery({
    queryKey: keyOf('/shop/products', { query: { q, per_page: 8 } }),
    enabled: q.length >= 2,
    placeholderData: keepPreviousData,
    queryFn: () => unwrap(api.GET('/shop/products', { params: { query: { q, per_page: 8 } } })),
  });
  return (
    <Stack gap={6}>
      <TextInput
        label="Search the shop"
        description="Fills the vendor, catalog number and price from the catalogue"
        placeholder="Product, vendor or catalog number"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        // It sits inside the request's form: Enter searches, it does not send the request.
        onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
      />
      {products.isError && <ErrorNotice error={products.error} />}
      {q.length >= 2 && products.isPending && <Loading label="Searching the shop" size="sm" />}
      {q.length >= 2 && products.data?.length === 0 && (
        <Text size="sm" c="dimmed">
          The shop has nothing matching “{q}”.
        </Text>
      )}
      {q.length >= 2 && products.data && products.data.length > 0 && (
        <ul aria-label="Shop products" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {products.data.map((p) => (
            <li key={p.id}>
              <Group gap="xs" wrap="nowrap" py={2}>
                <Button
                  size="compact-sm"
                  variant="light"
                  onClick={() => {
                    onPick(p);
                    setText('');
                  }}
                  aria-label={`Use ${p.item_name}, ${p.vendor_name} ${p.catalog_number}`}
                >
                  Use
                </Button>
                <Text size="sm">
                  {p.item_name} · {p.vendor_name} {p.catalog_number} · {majorUnits(p.price)} {p.price.currency} per {p.unit.amount}{' '}
                  {p.unit.symbol}
                </Text>
              </Group>
            </li>
          ))}
        </ul>
      )}
    </Stack>
  );
}
