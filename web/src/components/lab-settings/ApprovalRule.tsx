import type { components } from '@labstock/client';
import { Button, Group, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api';
import { setData } from '../../data/keys';
import { idempotent, useSubmission } from '../../forms/submission';
import { majorUnits, typedMoney } from '../../money';
import { formatMoney } from '../../pages/OrderRequests';
import { ErrorNotice } from '../ErrorNotice';
import { fieldError } from '../Profile';

type Settings = components['schemas']['LabApprovalSettings'];
type Rule = Settings['rule'];

/** What the rule in force means, in words. */
export function describeRule(settings: Pick<Settings, 'rule' | 'threshold'>): string {
  if (settings.rule === 'all') return 'Every order request needs approval before it is ordered.';
  if (settings.rule === 'above' && settings.threshold)
    return `Order requests whose total is above ${formatMoney(settings.threshold)} need approval.`;
  return 'No approval: order requests may be ordered at once.';
}

/**
 * The lab's approval rule (docs/ordering.md, The rule): none, all, or above a threshold. The rule in force when a
 * request is moved decides, so a change applies to the lab's open requests too.
 */
export function ApprovalRule({ labId, settings }: { labId: string; settings: Settings }) {
  const queryClient = useQueryClient();
  const [rule, setRule] = useState<Rule>(settings.rule);
  const [amount, setAmount] = useState(settings.threshold ? majorUnits(settings.threshold) : '');
  const [currency, setCurrency] = useState(settings.threshold?.currency ?? 'USD');
  const save = useSubmission({
    name: `approval-rule-${labId}`,
    renewOnSuccess: true,
    send: (_vars, key) =>
      unwrap(
        api.PUT('/labs/{id}/approval-settings', {
          params: { path: { id: labId } },
          headers: idempotent(key),
          body: rule === 'above' ? { rule, threshold: typedMoney(amount, currency) } : { rule },
        }),
      ),
    onSuccess: (saved) => setData(queryClient, '/labs/{id}/approval-settings', { id: labId }, saved),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.submit();
  };
  const thresholdError = fieldError(save.error, 'threshold') ?? fieldError(save.error, 'threshold.amount');
  const currencyError = fieldError(save.error, 'threshold.currency');
  return (
    <form onSubmit={submit} aria-label="Approval rule">
      <Stack gap="xs">
        <Title order={3}>Approval rule</Title>
        <Text size="sm" data-testid="approval-rule">
          {describeRule(settings)}
        </Text>
        <Radio.Group label="Which order requests need approval" value={rule} onChange={(value) => setRule(value as Rule)}>
          <Stack gap={6} mt={6}>
            <Radio value="none" label="None" />
            <Radio value="all" label="All of them" />
            <Radio value="above" label="Those above an amount" />
          </Stack>
        </Radio.Group>
        {rule === 'above' && (
          <Group align="start">
            <TextInput
              label="Amount"
              description="The request's total (unit price × quantity), e.g. 500.00"
              required
              inputMode="decimal"
              value={amount}
              onChange={(e) => setAmount(e.currentTarget.value)}
              error={thresholdError}
              w={220}
            />
            <TextInput
              label="Currency"
              required
              maxLength={3}
              value={currency}
              onChange={(e) => setCurrency(e.currentTarget.value)}
              error={currencyError}
              w={100}
            />
          </Group>
        )}
        {rule === 'above' && (
          <Text size="xs" c="dimmed">
            A request in another currency always needs approval: there is no exchange rate to compare with.
          </Text>
        )}
        <Group>
          <Button type="submit" loading={save.isPending} disabled={rule === 'above' && (!amount.trim() || !currency.trim())}>
            Save approval rule
          </Button>
          {save.isSuccess && !save.isPending && (
            <Text size="sm" role="status">
              Saved.
            </Text>
          )}
        </Group>
        {save.isError && !thresholdError && !currencyError && <ErrorNotice error={save.error} title="Approval rule not saved" />}
      </Stack>
    </form>
  );
}
