import { Anchor, Center, Group, Loader, Pagination, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';

const PER_PAGE = 25;

/** The lab's items: a lab switcher, a search box and a page of the table; all of it lives in the URL. */
export function InventoryPage() {
  const [params, setParams] = useSearchParams();
  const labId = params.get('lab') ?? '';
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const [text, setText] = useState(params.get('q') ?? '');
  const [q] = useDebouncedValue(text.trim(), 250);

  const labs = useQuery({ queryKey: ['labs'], queryFn: () => unwrap(api.GET('/labs', { params: { query: { per_page: 100 } } })) });

  const update = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const nextParams = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) nextParams.set(key, value);
          else nextParams.delete(key);
        }
        return nextParams;
      },
      { replace: true },
    );

  // The first lab is chosen until the person picks one.
  const firstLab = labs.data?.[0]?.id;
  useEffect(() => {
    if (!labId && firstLab) update({ lab: firstLab });
  });
  useEffect(() => {
    if ((params.get('q') ?? '') !== q) update({ q: q || null, page: null });
  });

  const items = useQuery({
    queryKey: ['inventory-items', labId, q, page],
    enabled: labId !== '',
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const call = api.GET('/inventory-items', { params: { query: { lab_id: labId, ...(q ? { q } : {}), page, per_page: PER_PAGE } } });
      const rows = await unwrap(call);
      return { rows, total: Number((await call).response.headers.get('x-total-count') ?? rows.length) };
    },
  });

  return (
    <Stack>
      <Title order={2}>Inventory</Title>
      {labs.isError && <ErrorNotice error={labs.error} />}
      <Group align="end" wrap="wrap">
        <Select
          label="Lab"
          data={(labs.data ?? []).map((lab) => ({ value: lab.id, label: lab.name }))}
          value={labId || null}
          onChange={(value) => update({ lab: value, page: null })}
          allowDeselect={false}
          w={260}
        />
        <TextInput
          label="Search"
          placeholder="Name, CAS, catalog or lot number"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={320}
        />
      </Group>
      {items.isError && <ErrorNotice error={items.error} />}
      {items.isPending && labId !== '' && (
        <Center p="lg">
          <Loader aria-label="Loading items" />
        </Center>
      )}
      {labs.data?.length === 0 && <Text>You belong to no lab yet: ask an organization admin to add you to one.</Text>}
      {items.data && items.data.rows.length === 0 && (
        <Text data-testid="no-items">{q ? `Nothing matches “${q}”.` : 'This lab holds no items yet.'}</Text>
      )}
      {items.data && items.data.rows.length > 0 && (
        <>
          <Table.ScrollContainer minWidth={600}>
            <Table striped highlightOnHover aria-label="Items" data-testid="items-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Vendor</Table.Th>
                  <Table.Th>Catalog no.</Table.Th>
                  <Table.Th>Quantity</Table.Th>
                  <Table.Th>Expires</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.data.rows.map((item) => (
                  <Table.Tr key={item.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/inventory/items/${item.id}`}>
                        {item.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{item.vendor}</Table.Td>
                    <Table.Td>{item.catalog_number}</Table.Td>
                    <Table.Td>{item.quantity}</Table.Td>
                    <Table.Td>{soonestExpiry(item)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {items.data.total} item{items.data.total === 1 ? '' : 's'}
            </Text>
            <Pagination
              total={Math.max(1, Math.ceil(items.data.total / PER_PAGE))}
              value={page}
              onChange={(n) => update({ page: n === 1 ? null : String(n) })}
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            />
          </Group>
        </>
      )}
    </Stack>
  );
}

function soonestExpiry(item: { expiration_date: string | null; instances: { expiration_date: string | null }[] }): string {
  const dates = [item.expiration_date, ...item.instances.map((i) => i.expiration_date)].filter((d): d is string => !!d).sort();
  return dates[0] ?? '';
}
