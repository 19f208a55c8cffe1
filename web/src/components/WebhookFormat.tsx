import type { components } from '@labstock/client';
import { Button, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api';
import { keyOf, setData } from '../data/keys';
import { idempotent, useSubmission } from '../forms/submission';
import { ErrorNotice } from './ErrorNotice';
import { Loading } from './Fields';

type Format = components['schemas']['WebhookSettings']['format'];

const DESCRIPTIONS: Record<Format, string> = {
  json: 'Each event is sent as plain JSON, as receivers of this API expect.',
  cloudevents:
    'Each event is sent in the CloudEvents format (structured mode), which CloudEvents libraries read as they are, with the id of the changed record as its subject.',
};

/** The format a webhook's events are sent in (docs/webhooks.md, "Format"): its own setting, beside the webhook. */
export function WebhookFormat({ webhookId }: { webhookId: string }) {
  const current = useQuery({
    queryKey: keyOf('/webhooks/{id}/settings', { path: { id: webhookId } }),
    queryFn: () => unwrap(api.GET('/webhooks/{id}/settings', { params: { path: { id: webhookId } } })),
  });
  return (
    <Stack gap="xs">
      <Title order={3}>Format</Title>
      {current.isError && <ErrorNotice error={current.error} />}
      {current.isPending && <Loading label="Loading the format" size="sm" />}
      {current.data && <FormatForm key={current.data.format} webhookId={webhookId} value={current.data.format} />}
    </Stack>
  );
}

function FormatForm({ webhookId, value }: { webhookId: string; value: Format }) {
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState<Format>(value);
  const save = useSubmission({
    name: 'webhook-format',
    renewOnSuccess: true,
    send: (format: Format, key) =>
      unwrap(api.PUT('/webhooks/{id}/settings', { params: { path: { id: webhookId } }, body: { format }, headers: idempotent(key) })),
    onSuccess: (saved) => setData(queryClient, '/webhooks/{id}/settings', { id: webhookId }, saved),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.submit(choice);
  };
  return (
    <form onSubmit={submit} aria-label="Format">
      <Stack gap="xs">
        <Text size="sm" data-testid="webhook-format">
          {DESCRIPTIONS[value]}
        </Text>
        <Radio.Group label="Send events as" value={choice} onChange={(v) => setChoice(v as Format)}>
          <Stack gap={6} mt={6}>
            <Radio value="json" label="Standard JSON" description="The default; what existing receivers expect." />
            <Radio value="cloudevents" label="CloudEvents" description="For receivers built with a CloudEvents library." />
          </Stack>
        </Radio.Group>
        <Group>
          <Button type="submit" loading={save.isPending} disabled={choice === value}>
            Save format
          </Button>
        </Group>
        {save.isError && <ErrorNotice error={save.error} title="Format not saved" />}
      </Stack>
    </form>
  );
}
