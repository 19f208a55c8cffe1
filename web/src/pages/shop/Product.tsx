import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, LabstockError, unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FieldGrid, Loading } from '../../components/Fields';
import { keyOf } from '../../data/keys';
import { NotFoundPage } from '../NotFound';
import { formatMoney } from '../OrderRequests';
import { UUID } from './shop';

/**
 * One catalogue product. "Request this" opens the new-request form with `?vendor_product_id=`: a request that
 * carries it is one the shop can sell (docs/api.md, Checkout); the form reads the product to fill itself.
 */
export function ProductPage() {
  const { id = '' } = useParams();
  const product = useQuery({
    queryKey: keyOf('/shop/products/{id}', { path: { id } }),
    enabled: UUID.test(id),
    queryFn: () => unwrap(api.GET('/shop/products/{id}', { params: { path: { id } } })),
  });
  if (!UUID.test(id) || (product.error instanceof LabstockError && product.error.status === 404)) return <NotFoundPage what="product" />;
  if (product.isError) return <ErrorNotice error={product.error} />;
  if (product.isPending) return <Loading label="Loading the product" />;
  const p = product.data;
  return (
    <Stack>
      <Anchor component={Link} to="/shop" size="sm">
        ← Catalogue
      </Anchor>
      <Title order={2} data-testid="product-name">
        {p.item_name}
      </Title>
      <FieldGrid
        fields={[
          ['Vendor', p.vendor_name],
          ['Catalog number', p.catalog_number],
          ['Unit', `${p.unit.amount} ${p.unit.name} (${p.unit.symbol})`],
          ['Price', formatMoney(p.price)],
        ]}
      />
      <Text size="sm" c="dimmed">
        Request it for a lab; once the request is approved, check it out in the shop.
      </Text>
      <Group>
        <Button component={Link} to={`/order-requests/new?vendor_product_id=${p.id}`}>
          Request this
        </Button>
      </Group>
    </Stack>
  );
}
