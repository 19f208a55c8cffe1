import type { components } from '@labstock/client';
import { Button, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api';
import { keyOf, setData } from '../../data/keys';
import { idempotent, useSubmission } from '../../forms/submission';
import { ErrorNotice } from '../ErrorNotice';
import { Loading } from '../Fields';

type Settings = components['schemas']['LabSafetySettings'];
type Mode = Settings['segregation'];

/**
 * What happens when a container would break segregation or take a control area over its limit (docs/safety.md,
 * "Warn or block"): warn (the person sees it and goes ahead) or refuse. Managers and org admins; saved once.
 */
export function SafetySettings({ labId }: { labId: string }) {
  const current = useQuery({
    queryKey: keyOf('/labs/{id}/safety-settings', { path: { id: labId } }),
    queryFn: () => unwrap(api.GET('/labs/{id}/safety-settings', { params: { path: { id: labId } } })),
  });
  return (
    <Stack gap="xs" data-testid="safety-settings">
      <Title order={3}>Storage safety</Title>
      {current.isError && <ErrorNotice error={current.error} />}
      {current.isPending && <Loading label="Loading the storage safety settings" size="sm" />}
      {current.data && <SafetyForm key={`${current.data.segregation}-${current.data.limits}`} labId={labId} value={current.data} />}
    </Stack>
  );
}

const SEGREGATION_NOW = {
  warn: 'A container that would share a place with something it must be kept apart from can still go there, after a warning.',
  block: 'A container that would share a place with something it must be kept apart from is refused.',
};
const LIMITS_NOW = {
  warn: 'A container that would take a control area over its limit can still go there, after a warning.',
  block: 'A container that would take a control area over its limit is refused.',
};

function SafetyForm({ labId, value }: { labId: string; value: Settings }) {
  const queryClient = useQueryClient();
  const [segregation, setSegregation] = useState<Mode>(value.segregation);
  const [limits, setLimits] = useState<Mode>(value.limits);
  const save = useSubmission({
    name: `safety-settings-${labId}`,
    renewOnSuccess: true,
    send: (_: null, key) =>
      unwrap(
        api.PUT('/labs/{id}/safety-settings', {
          params: { path: { id: labId } },
          body: { segregation, limits },
          headers: idempotent(key),
        }),
      ),
    onSuccess: (saved) => setData(queryClient, '/labs/{id}/safety-settings', { id: labId }, saved),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.submit(null);
  };
  const unchanged = segregation === value.segregation && limits === value.limits;
  return (
    <form onSubmit={submit} aria-label="Storage safety">
      <Stack gap="sm">
        <Text size="sm" data-testid="safety-settings-now">
          {SEGREGATION_NOW[value.segregation]} {LIMITS_NOW[value.limits]}
        </Text>
        <Radio.Group
          label="When a container would break segregation"
          description="An oxidizer beside a solvent, an acid beside a base: the pairs the safety table keeps apart."
          value={segregation}
          onChange={(v) => setSegregation(v as Mode)}
        >
          <Stack gap={6} mt={6}>
            <Radio value="warn" label="Warn: show what it would share a place with, and let the person go ahead" />
            <Radio value="block" label="Refuse: the container cannot go there" />
          </Stack>
        </Radio.Group>
        <Radio.Group
          label="When a control area would go over its limit"
          description="The fire code's maximum allowable quantities, or the limits set on the control area."
          value={limits}
          onChange={(v) => setLimits(v as Mode)}
        >
          <Stack gap={6} mt={6}>
            <Radio value="warn" label="Warn: show the figures, and let the person go ahead" />
            <Radio value="block" label="Refuse: nothing goes over the limit" />
          </Stack>
        </Radio.Group>
        {!value.can_edit && (
          <Text size="sm" c="dimmed">
            Only the lab's managers and the organization's admins change these.
          </Text>
        )}
        <Group>
          <Button type="submit" loading={save.isPending} disabled={unchanged || !value.can_edit}>
            Save storage safety settings
          </Button>
        </Group>
        {save.isError && <ErrorNotice error={save.error} title="Storage safety settings not saved" />}
      </Stack>
    </form>
  );
}
