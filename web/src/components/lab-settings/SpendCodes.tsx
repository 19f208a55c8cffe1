import type { components } from '@labstock/client';
import { Badge, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { Fragment, useState } from 'react';
import { useSpendCodes } from '../../data/hooks';
import { formatMoney } from '../../pages/OrderRequests';
import { ErrorNotice } from '../ErrorNotice';
import { Loading } from '../Fields';
import { CreateSpendCode, EditSpendCode, PERIODS } from './SpendCodeForm';

type Code = components['schemas']['SpendTrackingCode'];

/**
 * The lab's spend tracking codes with their spend in the period that contains a day (today unless the person picks
 * another): ordered, backordered and received requests count, by when they were ordered (docs/ordering.md).
 */
export function SpendCodes({ labId }: { labId: string }) {
  const [on, setOn] = useState('');
  const [editing, setEditing] = useState<string | null>(null);
  const day = /^\d{4}-\d{2}-\d{2}$/.test(on) ? on : undefined;
  const codes = useSpendCodes(labId, day, { keepPrevious: true });
  return (
    <Stack gap="xs">
      <Title order={3}>Spend tracking codes</Title>
      <Text size="sm">
        Each code has a budget per month, quarter or year (calendar periods in UTC); order requests name the code they spend.
      </Text>
      <Group align="end">
        <TextInput
          type="date"
          label="Spend in the period that contains"
          description="Empty: today"
          value={on}
          onChange={(e) => setOn(e.currentTarget.value)}
          w={260}
        />
        {on && (
          <Button variant="default" onClick={() => setOn('')}>
            Today
          </Button>
        )}
      </Group>
      {codes.isError && <ErrorNotice error={codes.error} />}
      {codes.isPending && <Loading label="Loading the spend tracking codes" size="sm" />}
      {codes.data && codes.data.length === 0 && <Text c="dimmed">No codes yet.</Text>}
      {codes.data && codes.data.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table aria-label="Spend tracking codes" data-testid="spend-codes-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Code</Table.Th>
                <Table.Th>Period</Table.Th>
                <Table.Th>Budget</Table.Th>
                <Table.Th>Spent</Table.Th>
                <Table.Th>Remaining</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {codes.data.map((code) => (
                <Fragment key={code.id}>
                  <CodeRow code={code} editing={editing === code.id} onEdit={() => setEditing(editing === code.id ? null : code.id)} />
                  {editing === code.id && (
                    <Table.Tr>
                      <Table.Td colSpan={6}>
                        <EditSpendCode code={code} labId={labId} onDone={() => setEditing(null)} />
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <CreateSpendCode labId={labId} />
    </Stack>
  );
}

function CodeRow({ code, editing, onEdit }: { code: Code; editing: boolean; onEdit: () => void }) {
  const period = PERIODS.find((p) => p.value === code.period)?.label ?? code.period;
  return (
    <Table.Tr data-testid={`spend-code-${code.name}`}>
      <Table.Td>{code.name}</Table.Td>
      <Table.Td>
        <Text size="sm">{period}</Text>
        <Text size="xs" c="dimmed">
          {code.period_start} to {code.period_end}
        </Text>
      </Table.Td>
      <Table.Td>{code.budget ? formatMoney(code.budget) : 'No budget'}</Table.Td>
      <Table.Td data-testid="spent">{code.spent.length ? code.spent.map(formatMoney).join(', ') : 'Nothing'}</Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" data-testid="remaining">
            {code.remaining ? formatMoney(code.remaining) : '—'}
          </Text>
          {code.over_budget && (
            <Badge color="red" variant="light">
              Over budget
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>
        <Button size="compact-xs" variant="default" onClick={onEdit} aria-expanded={editing} aria-label={`Edit ${code.name}`}>
          Edit
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}
