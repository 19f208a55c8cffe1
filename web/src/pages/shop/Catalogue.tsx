import { Anchor, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Fields';
import { keyOf } from '../../data/keys';
import { formatMoney } from '../OrderRequests';

/** The shop's catalogue (the service's, the same for every organization), searched by word (GET /shop/products). */
export function CataloguePage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [text, setText] = useState(q);
  const products = useQuery({
    queryKey: keyOf('/shop/products', { query: { per_page: 50, ...(q ? { q } : {}) } }),
    placeholderData: keepPreviousData,
    queryFn: () => unwrap(api.GET('/shop/products', { params: { query: { per_page: 50, ...(q ? { q } : {}) } } })),
  });
  const search = (event: FormEvent) => {
    event.preventDefault();
    setParams(text.trim() ? { q: text.trim() } : {}, { replace: true });
  };
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Shop</Title>
        <Group gap="xs">
          <Button variant="default" component={Link} to="/shop/orders">
            Shop orders
          </Button>
          <Button component={Link} to="/shop/checkout">
            Check out
          </Button>
        </Group>
      </Group>
      <form onSubmit={search} aria-label="Search the catalogue">
        <Group align="flex-end">
          <TextInput
            label="Search the catalogue"
            description="Every word must appear in the name, catalog number or vendor"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            style={{ flex: 1, maxWidth: 480 }}
          />
          <Button type="submit" variant="light">
            Search
          </Button>
        </Group>
      </form>
      {products.isError && <ErrorNotice error={products.error} />}
      {products.isPending && <Loading label="Loading the catalogue" />}
      {products.data?.length === 0 && <Text data-testid="no-products">No product matches{q ? ` “${q}”` : ''}.</Text>}
      {products.data && products.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label="Products" data-testid="products-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Product</Table.Th>
                <Table.Th>Vendor</Table.Th>
                <Table.Th>Catalog number</Table.Th>
                <Table.Th>Unit</Table.Th>
                <Table.Th>Price</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {products.data.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/shop/products/${p.id}`}>
                      {p.item_name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{p.vendor_name}</Table.Td>
                  <Table.Td>{p.catalog_number}</Table.Td>
                  <Table.Td>
                    {p.unit.amount} {p.unit.symbol}
                  </Table.Td>
                  <Table.Td>{formatMoney(p.price)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
