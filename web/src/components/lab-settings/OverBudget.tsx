import type { components } from '@labstock/client';
import { Button, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api';
import { keyOf, setData } from '../../data/keys';
import { idempotent, useSubmission } from '../../forms/submission';
import { ErrorNotice } from '../ErrorNotice';
import { Loading } from '../Fields';

type Choice = components['schemas']['SpendSettings']['over_budget'];

/** What happens when an order would spend more than its code's budget (docs/ordering.md, The spend and the budget). */
export function OverBudget({ labId }: { labId: string }) {
  const current = useQuery({
    queryKey: keyOf('/labs/{id}/spend-settings', { path: { id: labId } }),
    queryFn: () => unwrap(api.GET('/labs/{id}/spend-settings', { params: { path: { id: labId } } })),
  });
  return (
    <Stack gap="xs">
      <Title order={3}>Over budget</Title>
      {current.isError && <ErrorNotice error={current.error} />}
      {current.isPending && <Loading label="Loading the over-budget setting" size="sm" />}
      {current.data && <OverBudgetForm labId={labId} value={current.data.over_budget} />}
    </Stack>
  );
}

function OverBudgetForm({ labId, value }: { labId: string; value: Choice }) {
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState<Choice>(value);
  const save = useSubmission({
    name: `over-budget-${labId}`,
    renewOnSuccess: true,
    send: (_vars, key) =>
      unwrap(
        api.PUT('/labs/{id}/spend-settings', { params: { path: { id: labId } }, body: { over_budget: choice }, headers: idempotent(key) }),
      ),
    onSuccess: (saved) => setData(queryClient, '/labs/{id}/spend-settings', { id: labId }, saved),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.submit();
  };
  return (
    <form onSubmit={submit} aria-label="Over budget">
      <Stack gap="xs">
        <Text size="sm" data-testid="over-budget-setting">
          {value === 'block'
            ? 'An order that would spend more than its code’s budget is refused.'
            : 'An order over its code’s budget goes ahead, and its history says by how much.'}
        </Text>
        <Radio.Group label="When an order would go over its code's budget" value={choice} onChange={(v) => setChoice(v as Choice)}>
          <Stack gap={6} mt={6}>
            <Radio value="warn" label="Warn: let it go ahead and note it in the request's history" />
            <Radio value="block" label="Block: refuse the order" />
          </Stack>
        </Radio.Group>
        <Group>
          <Button type="submit" loading={save.isPending} disabled={choice === value}>
            Save over-budget setting
          </Button>
        </Group>
        {save.isError && <ErrorNotice error={save.error} title="Over-budget setting not saved" />}
      </Stack>
    </form>
  );
}
