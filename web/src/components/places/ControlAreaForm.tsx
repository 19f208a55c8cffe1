import { Button, Checkbox, Group, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api';
import { parseDecimal } from '../../forms/decimal';
import { idempotent, useSubmission } from '../../forms/submission';
import { ErrorNotice } from '../ErrorNotice';
import { invalidateControlArea } from './cache';
import type { ControlArea, Limit } from './types';
import { limitName } from './words';

interface Row {
  limit: Limit;
  /** As typed. */
  text: string;
  /** Set by hand (sent), else it follows the default. */
  set: boolean;
}

const keyOfLimit = (l: Pick<Limit, 'category' | 'state'>) => `${l.category}/${l.state}`;

/**
 * Marks the location a control area or changes it: the two options of the fire code's footnotes and the limits per
 * class and state. A limit typed here is set by hand; "Use the default" gives it back to the fire code's default for
 * the options (what the server computes on saving). One save, one change (useSubmission).
 */
export function ControlAreaForm({ area, name, onDone }: { area: ControlArea; name: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [sprinklered, setSprinklered] = useState(area.sprinklered);
  const [cabinets, setCabinets] = useState(area.cabinets);
  const [rows, setRows] = useState<Row[]>(() => area.limits.map((limit) => ({ limit, text: limit.limit, set: limit.source === 'set' })));
  const [shown, setShown] = useState(false);
  const parsed = rows.map((r) => (r.set ? parseDecimal(r.text, { allowZero: true }) : {}));
  const invalid = parsed.some((p) => p.error);
  const save = useSubmission({
    name: `control-area-${area.location_id}`,
    renewOnSuccess: true,
    send: (_: null, key) =>
      unwrap(
        api.PUT('/locations/{id}/control-area', {
          params: { path: { id: area.location_id } },
          body: {
            sprinklered,
            cabinets,
            limits: rows.flatMap((r, i) =>
              r.set ? [{ category: r.limit.category, state: r.limit.state, limit: parsed[i]?.value ?? r.text }] : [],
            ),
          },
          headers: idempotent(key),
        }),
      ),
    onSuccess: async () => {
      await invalidateControlArea(queryClient, area.location_id);
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!invalid) save.submit(null);
  };
  const update = (key: string, change: Partial<Row>) =>
    setRows((all) => all.map((r) => (keyOfLimit(r.limit) === key ? { ...r, ...change } : r)));
  const optionsChanged = sprinklered !== area.sprinklered || cabinets !== area.cabinets;
  const visible = shown ? rows : rows.filter((r) => r.set || r.limit.source === 'set');
  return (
    <form onSubmit={submit} aria-label="Control area" data-testid="control-area-form">
      <Stack gap="sm">
        <Text size="sm">
          {area.marked ? `Options and limits of ${name}.` : `Mark ${name} as a control area.`} The defaults are the fire code's maximum
          allowable quantities; the site's fire official decides the limits, so set what they approved.
        </Text>
        <Checkbox
          label="The building is sprinklered throughout (doubles the defaults)"
          checked={sprinklered}
          onChange={(e) => setSprinklered(e.currentTarget.checked)}
        />
        <Checkbox
          label="Kept in approved storage cabinets (doubles the defaults)"
          checked={cabinets}
          onChange={(e) => setCabinets(e.currentTarget.checked)}
        />
        {optionsChanged && (
          <Text size="sm" c="dimmed">
            The defaults below follow the new options once saved.
          </Text>
        )}
        <Text size="sm" fw={600}>
          Limits
        </Text>
        {visible.length === 0 && (
          <Text size="sm" c="dimmed">
            No limit set by hand: all follow the defaults.
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
          {visible.map((r) => {
            const key = keyOfLimit(r.limit);
            const error = parsed[rows.indexOf(r)]?.error;
            return (
              <div key={key} data-testid="limit-field">
                <TextInput
                  label={limitName(r.limit, area.limits)}
                  value={r.text}
                  onChange={(e) => update(key, { text: e.currentTarget.value, set: true })}
                  placeholder="The default"
                  rightSection={<Text size="sm">{r.limit.unit}</Text>}
                  rightSectionWidth={40}
                  inputMode="decimal"
                  error={error}
                />
                <Group gap={6} mt={2}>
                  <Text size="xs" c="dimmed">
                    {r.set ? 'Set by hand.' : r.text === '' ? 'Back to the default (its figure shows once saved).' : 'The default.'}
                  </Text>
                  {r.set && (
                    <UnstyledButton
                      fz="xs"
                      c="blue.8"
                      td="underline"
                      onClick={() => update(key, { set: false, text: r.limit.source === 'default' ? r.limit.limit : '' })}
                    >
                      Use the default
                    </UnstyledButton>
                  )}
                </Group>
              </div>
            );
          })}
        </SimpleGrid>
        <Group>
          <Button size="xs" variant="subtle" onClick={() => setShown((s) => !s)}>
            {shown ? 'Show only the limits set by hand' : `Show all ${rows.length} limits to change one`}
          </Button>
        </Group>
        {save.isError && <ErrorNotice error={save.error} title="Not saved" />}
        <Group>
          <Button type="submit" loading={save.isPending} disabled={invalid}>
            {area.marked ? 'Save the control area' : 'Mark as a control area'}
          </Button>
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
