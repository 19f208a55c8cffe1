import type { components } from '@labstock/client';
import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api';
import { invalidate } from '../../data/keys';
import { idempotent, useSubmission } from '../../forms/submission';
import { majorUnits, typedMoney } from '../../money';
import { ErrorNotice } from '../ErrorNotice';
import { fieldError } from '../Profile';

type Code = components['schemas']['SpendTrackingCode'];
type Period = Code['period'];

export const PERIODS: { value: Period; label: string }[] = [
  { value: 'month', label: 'Month' },
  { value: 'quarter', label: 'Quarter' },
  { value: 'year', label: 'Year' },
];

const FIELDS = ['name', 'period', 'budget', 'budget.amount', 'budget.currency'];
const budgetError = (error: unknown) => fieldError(error, 'budget') ?? fieldError(error, 'budget.amount');

/** Period and budget inputs, shared by creating and editing a code. */
function BudgetFields(props: {
  period: Period;
  amount: string;
  currency: string;
  error: unknown;
  onChange: (change: Partial<{ period: Period; amount: string; currency: string }>) => void;
}) {
  return (
    <>
      <Select
        label="Period"
        data={PERIODS}
        value={props.period}
        allowDeselect={false}
        onChange={(p) => p && props.onChange({ period: p as Period })}
        w={130}
      />
      <TextInput
        label="Budget per period"
        description="Empty: no budget"
        inputMode="decimal"
        value={props.amount}
        onChange={(e) => props.onChange({ amount: e.currentTarget.value })}
        error={budgetError(props.error)}
        w={180}
      />
      <TextInput
        label="Budget currency"
        maxLength={3}
        value={props.currency}
        onChange={(e) => props.onChange({ currency: e.currentTarget.value })}
        error={fieldError(props.error, 'budget.currency')}
        w={130}
      />
    </>
  );
}

const invalidateCodes = (queryClient: ReturnType<typeof useQueryClient>, labId: string) =>
  invalidate(queryClient, ['/labs/{id}/spend-tracking-codes', { id: labId }]);

/** POST /labs/{id}/spend-tracking-codes: a name (never changed later), a period and an optional budget. */
export function CreateSpendCode({ labId }: { labId: string }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ name: '', period: 'month' as Period, amount: '', currency: 'USD' });
  const create = useSubmission({
    name: `create-spend-code-${labId}`,
    renewOnSuccess: true,
    send: (_vars, key) =>
      unwrap(
        api.POST('/labs/{id}/spend-tracking-codes', {
          params: { path: { id: labId } },
          headers: idempotent(key),
          body: {
            name: form.name.trim(),
            period: form.period,
            ...(form.amount.trim() ? { budget: typedMoney(form.amount, form.currency) } : {}),
          },
        }),
      ),
    onSuccess: () => {
      setForm({ ...form, name: '', amount: '' });
      return invalidateCodes(queryClient, labId);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (form.name.trim()) create.submit();
  };
  const named = FIELDS.some((f) => fieldError(create.error, f));
  return (
    <form onSubmit={submit} aria-label="New spend tracking code">
      <Stack gap="xs">
        <Group align="start">
          <TextInput
            label="New code's name"
            required
            maxLength={200}
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.currentTarget.value })}
            error={fieldError(create.error, 'name')}
            w={200}
          />
          <BudgetFields {...form} error={create.error} onChange={(change) => setForm({ ...form, ...change })} />
        </Group>
        <Group>
          <Button type="submit" loading={create.isPending} disabled={!form.name.trim()}>
            Create code
          </Button>
        </Group>
        {create.isError && !named && <ErrorNotice error={create.error} title="No code created" />}
      </Stack>
    </form>
  );
}

/** PUT /spend-tracking-codes/{id}: the period and the budget; an empty amount removes the budget. */
export function EditSpendCode({ code, labId, onDone }: { code: Code; labId: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState({
    period: code.period,
    amount: code.budget ? majorUnits(code.budget) : '',
    currency: code.budget?.currency ?? 'USD',
  });
  const save = useSubmission({
    name: `edit-spend-code-${code.id}`,
    renewOnSuccess: true,
    send: (_vars, key) =>
      unwrap(
        api.PUT('/spend-tracking-codes/{id}', {
          params: { path: { id: code.id } },
          headers: idempotent(key),
          body: { period: form.period, budget: form.amount.trim() ? typedMoney(form.amount, form.currency) : null },
        }),
      ),
    onSuccess: async () => {
      await invalidateCodes(queryClient, labId);
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.submit();
  };
  const named = FIELDS.some((f) => fieldError(save.error, f));
  return (
    <form onSubmit={submit} aria-label={`Edit ${code.name}`}>
      <Stack gap="xs">
        <Group align="start">
          <BudgetFields {...form} error={save.error} onChange={(change) => setForm({ ...form, ...change })} />
        </Group>
        <Group>
          <Button type="submit" size="xs" loading={save.isPending}>
            Save {code.name}
          </Button>
          <Button size="xs" variant="default" onClick={onDone}>
            Cancel
          </Button>
        </Group>
        {save.isError && !named && <ErrorNotice error={save.error} title={`${code.name} not changed`} />}
      </Stack>
    </form>
  );
}
