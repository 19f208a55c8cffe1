import { AppShell, Button, Group, PasswordInput, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { LabstockError, unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { DataTable, PHONE } from '../../data/DataTable';
import { familyOf, invalidate, keyOf } from '../../data/keys';
import { idempotent, useSubmission } from '../../forms/submission';
import { type Action, ActionPanel } from './FulfilmentActions';
import { type LineProps, lineColumns } from './FulfilmentLine';
import { operatorApi, operatorToken, setOperatorToken } from './operator-api';
import { type FulfilmentLine, LINE_STATUSES, lineStatusLabel, OPEN_LINE_STATUSES } from './shop';

const PER_PAGE = 50;

/**
 * Shop fulfilment for service operators (/app/shop/fulfilment). Operators are not users of an organization and have
 * no session, so this page stands outside the signed-in shell and is in no lab user's navigation; it works with an
 * operator token, and the server refuses any other (docs/decisions/0004-operators.md).
 */
export function FulfilmentPage() {
  const queryClient = useQueryClient();
  const [token, setToken] = useState(operatorToken());
  const use = (value: string | null) => {
    // What one token's queue showed is not kept for the next token.
    queryClient.removeQueries({ queryKey: familyOf('/shop/order-items') });
    setOperatorToken(value);
    setToken(value);
  };
  return (
    <AppShell header={{ height: 56 }} padding="md">
      <AppShell.Header>
        {/* One line at a phone's width: the brand gives way, so the title does not run under the button. */}
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Title order={1} size="h3">
            <Text span inherit visibleFrom="sm">
              Labstock shop{' '}
            </Text>
            <Text span inherit hiddenFrom="sm">
              Shop{' '}
            </Text>
            fulfilment
          </Title>
          {token && (
            <Button variant="default" size="xs" onClick={() => use(null)}>
              Forget token
            </Button>
          )}
        </Group>
      </AppShell.Header>
      <AppShell.Main>{token ? <Queue onRefused={() => use(null)} /> : <TokenForm onToken={use} />}</AppShell.Main>
    </AppShell>
  );
}

function TokenForm({ onToken }: { onToken: (token: string) => void }) {
  const [value, setValue] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) onToken(value.trim());
  };
  return (
    <form onSubmit={submit} aria-label="Operator sign-in">
      <Stack maw={520}>
        <Title order={2}>Operator sign-in</Title>
        <Text size="sm">
          Fulfilment is for the service's operators. Paste an operator token (made with <code>labstock admin operator token create</code>);
          it is kept in this page's memory only, and forgotten when you reload or close it.
        </Text>
        <PasswordInput label="Operator token" required value={value} onChange={(e) => setValue(e.currentTarget.value)} />
        <Group>
          <Button type="submit">Open the queue</Button>
        </Group>
      </Stack>
    </form>
  );
}

function Queue({ onRefused }: { onRefused: () => void }) {
  const queryClient = useQueryClient();
  // Where DataTable shows cards (PHONE), the action form opens in its line's card rather than below the table.
  const phone = useMediaQuery(PHONE, false, { getInitialValueInEffect: false });
  const [filter, setFilter] = useState('open');
  const [page, setPage] = useState(1);
  const [action, setAction] = useState<Action | null>(null);
  const statuses = filter === 'open' ? OPEN_LINE_STATUSES : filter === 'all' ? [] : [filter];
  // A page at a time with the total (X-Total-Count), oldest first as the server orders the queue: every line is
  // reachable, however many organizations order.
  const query = { page, per_page: PER_PAGE, ...(statuses.length ? { status: statuses } : {}) };
  const lines = useQuery({
    queryKey: keyOf('/shop/order-items', { query }),
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const call = operatorApi().GET('/shop/order-items', { params: { query } });
      const rows = await unwrap(call);
      return { rows, total: Number((await call).response.headers.get('x-total-count') ?? rows.length) };
    },
  });
  const pages = Math.max(1, Math.ceil((lines.data?.total ?? 0) / PER_PAGE));
  // Lines shipped or cancelled from the last page leave it: show the new last page rather than an empty one.
  useEffect(() => {
    if (lines.data && page > pages) setPage(pages);
  }, [lines.data, page, pages]);
  const deliver = useSubmission({
    name: 'deliver',
    renewOnSuccess: true,
    send: (shipmentId: string, key) =>
      unwrap(
        operatorApi().POST('/shop/shipments/{id}/deliver', { params: { path: { id: shipmentId } }, body: {}, headers: idempotent(key) }),
      ),
    onSuccess: () => invalidate(queryClient, '/shop/order-items'),
  });
  const lineProps = (line: FulfilmentLine): LineProps => ({
    line,
    onAction: (kind) => setAction({ kind, line }),
    onDeliver: (id) => deliver.submit(id),
    delivering: deliver.isPending ? deliver.variables : null,
  });
  const refused = lines.error instanceof LabstockError && (lines.error.status === 401 || lines.error.status === 403);
  if (refused) {
    return (
      <Stack maw={520}>
        <ErrorNotice error={lines.error} title="This token cannot fulfil" />
        <Group>
          <Button onClick={onRefused}>Use another token</Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Stack>
      <Title order={2}>Fulfilment queue</Title>
      <SegmentedControl
        aria-label="Line status"
        value={filter}
        onChange={(value) => {
          setFilter(value);
          setPage(1);
          setAction(null);
        }}
        data={[
          { value: 'open', label: 'Open' },
          ...LINE_STATUSES.map((s) => ({ value: s, label: lineStatusLabel(s) })),
          { value: 'all', label: 'All' },
        ]}
        style={{ alignSelf: 'flex-start', maxWidth: '100%', overflowX: 'auto' }}
      />
      {deliver.isError && <ErrorNotice error={deliver.error} title="Not delivered" />}
      <DataTable
        label="Order lines"
        testId="fulfilment-table"
        rowTestId="fulfilment-line"
        emptyTestId="queue-empty"
        totalTestId="fulfilment-total"
        query={lines}
        columns={lineColumns(lineProps)}
        rowKey={(line) => line.id}
        page={page}
        perPage={PER_PAGE}
        onPage={(n) => {
          setPage(n);
          setAction(null);
        }}
        noun={['line', 'lines']}
        empty="Nothing here."
        loadingLabel="Loading the queue"
        minWidth={860}
        // On a phone the form opens under its line: at the bottom of the page it would be out of sight.
        cardExtra={(line) =>
          phone && action?.line.id === line.id ? (
            <ActionPanel key={`${action.kind}-${line.id}`} action={action} onDone={() => setAction(null)} />
          ) : null
        }
      />
      {action && !phone && <ActionPanel key={`${action.kind}-${action.line.id}`} action={action} onDone={() => setAction(null)} />}
    </Stack>
  );
}
