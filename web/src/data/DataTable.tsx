import { Card, Group, Pagination, Select, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import type { Page } from './hooks';

// The one table of the application (docs/web.md, "Data layer"), after InvenTree's InvenTreeTable: a page of a
// list from usePage, its total, a pager to the last page, sortable headers, and the loading, empty and error states.
// Below 600 px wide each row becomes a card that shows every field the person came for, label and value, one
// under the other, so nothing they need is off-screen to the right.

export const PHONE = '(max-width: 600px)';

export interface Column<T> {
  key: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** The API's `sort` value for this column, ascending; descending is the same with a leading `-`. */
  sort?: string;
  /** How the phone's Order menu names the two directions ("Oldest first", "Newest first"); else "<header>, A to Z". */
  sortWords?: [ascending: string, descending: string];
  /** On a phone: the card's heading, a labelled field (the default), or left out (repeated elsewhere on the card). */
  phone?: 'title' | 'field' | 'hidden';
  /** No header text on the card (an action button names itself). */
  bare?: boolean;
}

export interface DataTableProps<T> {
  /** The table's accessible name, and the heading of nothing: the page has its own title. */
  label: string;
  testId?: string;
  /** The test id of the empty state's text. */
  emptyTestId?: string;
  /** The test id of the total's text ("list-total" unless given). */
  totalTestId?: string;
  /** The test id of each card on a phone. */
  cardTestId?: string;
  /** The test id of each row, in the table and as a card alike (overrides cardTestId). */
  rowTestId?: string;
  /** What opens under a row's card on a phone (a form for that row: at the page's bottom it would be out of sight). */
  cardExtra?: (row: T) => ReactNode;
  /** The page has its own order menu: no second one above the cards on a phone. */
  noPhoneOrder?: boolean;
  query: UseQueryResult<Page<T>>;
  columns: Column<T>[];
  rowKey: (row: T) => string;
  page: number;
  perPage: number;
  onPage: (page: number) => void;
  sort?: string | undefined;
  onSort?: (sort: string) => void;
  /** What the list counts, singular and plural: "1 request", "120 requests". */
  noun: [string, string];
  empty: ReactNode;
  loadingLabel: string;
  errorTitle?: string;
  minWidth?: number;
}

export function DataTable<T>(props: DataTableProps<T>) {
  const phone = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });
  const { query } = props;
  if (query.isError && !query.data) return <ErrorNotice error={query.error} title={props.errorTitle} />;
  if (query.isPending) return <Loading label={props.loadingLabel} />;
  const { rows, total, atLeast } = query.data;
  // Past a bounded count there is always one more page to go to.
  const pages = Math.max(1, Math.ceil(total / props.perPage) + (atLeast ? 1 : 0));
  return (
    // The test id names the list while it has rows; an empty list is its `emptyTestId` text alone.
    <Stack gap="xs" data-testid={rows.length > 0 ? props.testId : undefined}>
      {query.isError && <ErrorNotice error={query.error} title={props.errorTitle} />}
      {rows.length === 0 ? (
        <Text data-testid={props.emptyTestId}>{props.empty}</Text>
      ) : phone ? (
        <Cards {...props} rows={rows} />
      ) : (
        <Rows {...props} rows={rows} />
      )}
      <Group justify="space-between" gap="xs">
        <Text size="sm" c="dimmed" data-testid={props.totalTestId ?? 'list-total'} aria-live="polite">
          {atLeast
            ? `more than ${total.toLocaleString('en')} ${props.noun[1]}`
            : total === 1
              ? `1 ${props.noun[0]}`
              : `${total.toLocaleString('en')} ${props.noun[1]}`}
          {/* While the next page loads the previous one's rows stay in view: the caption says so rather than
              naming the new page over the old rows. */}
          {pages > 1 && !atLeast && ` · ${query.isPlaceholderData ? 'turning to ' : ''}page ${Math.min(props.page, pages)} of ${pages}`}
        </Text>
        {pages > 1 && (
          <Pagination
            size={phone ? 'sm' : 'md'}
            siblings={phone ? 0 : 1}
            total={Math.max(pages, props.page)}
            value={atLeast ? props.page : Math.min(props.page, pages)}
            onChange={props.onPage}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            getItemProps={(n) => ({ 'aria-label': `Page ${n}` })}
          />
        )}
      </Group>
    </Stack>
  );
}

function Rows<T>(props: DataTableProps<T> & { rows: T[] }) {
  return (
    <Table.ScrollContainer minWidth={props.minWidth ?? 640}>
      <Table striped aria-label={props.label} aria-busy={props.query.isFetching}>
        <Table.Thead>
          <Table.Tr>
            {props.columns.map((c) => (
              <Table.Th key={c.key} aria-sort={ariaSort(c, props.sort)}>
                {c.sort && props.onSort ? (
                  <UnstyledButton
                    fw={700}
                    fz="sm"
                    onClick={() => props.onSort!(props.sort === c.sort ? `-${c.sort}` : c.sort!)}
                    // What a click does: ascending first, then each click reverses it.
                    aria-label={`${c.header}, sort ${props.sort === c.sort ? 'descending' : 'ascending'}`}
                  >
                    {c.header}
                    <span aria-hidden="true">{props.sort === c.sort ? ' ▲' : props.sort === `-${c.sort}` ? ' ▼' : ''}</span>
                  </UnstyledButton>
                ) : (
                  c.header
                )}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.rows.map((row) => (
            <Table.Tr key={props.rowKey(row)} data-testid={props.rowTestId}>
              {props.columns.map((c) => (
                <Table.Td key={c.key}>{c.cell(row)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Cards<T>(props: DataTableProps<T> & { rows: T[] }) {
  const sortable = props.columns.filter((c) => c.sort);
  const title = props.columns.find((c) => c.phone === 'title');
  return (
    <Stack gap="xs">
      {sortable.length > 0 && props.onSort && !props.noPhoneOrder && (
        <Select
          label="Order"
          size="sm"
          allowDeselect={false}
          value={props.sort ?? null}
          onChange={(v) => v && props.onSort!(v)}
          data={sortable.flatMap((c) => [
            { value: c.sort!, label: c.sortWords?.[0] ?? `${c.header}, A to Z` },
            { value: `-${c.sort}`, label: c.sortWords?.[1] ?? `${c.header}, Z to A` },
          ])}
        />
      )}
      <Stack gap="xs" role="list" aria-label={props.label} aria-busy={props.query.isFetching}>
        {props.rows.map((row) => (
          <Card key={props.rowKey(row)} withBorder padding="sm" role="listitem" data-testid={props.rowTestId ?? props.cardTestId}>
            {title && <div>{title.cell(row)}</div>}
            <Stack gap={4} mt={title ? 4 : 0}>
              {props.columns
                .filter((c) => c !== title && c.phone !== 'hidden')
                .map((c) =>
                  c.bare ? (
                    <div key={c.key}>{c.cell(row)}</div>
                  ) : (
                    <Group key={c.key} gap="xs" wrap="nowrap" align="baseline">
                      <Text size="xs" c="dimmed" w={96} style={{ flexShrink: 0 }}>
                        {c.header}
                      </Text>
                      <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{c.cell(row)}</div>
                    </Group>
                  ),
                )}
              {props.cardExtra?.(row)}
            </Stack>
          </Card>
        ))}
      </Stack>
    </Stack>
  );
}

function ariaSort<T>(c: Column<T>, sort: string | undefined): 'ascending' | 'descending' | undefined {
  if (!c.sort) return undefined;
  if (sort === c.sort) return 'ascending';
  if (sort === `-${c.sort}`) return 'descending';
  return undefined;
}
