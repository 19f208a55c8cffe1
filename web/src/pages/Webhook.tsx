import type { Webhook } from '@labstock/client';
import { Alert, Anchor, Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, LabstockError, unwrap } from '../api';
import { DeliveryLog, ReplayForm } from '../components/DeliveryLog';
import { ErrorNotice } from '../components/ErrorNotice';
import { shortEventType } from '../components/EventTypePicker';
import { FieldGrid, Loading } from '../components/Fields';
import { SigningKeyNotice } from '../components/SigningKey';
import { WebhookForm, type WebhookFormValues } from '../components/WebhookForm';
import { WebhookFormat } from '../components/WebhookFormat';
import { invalidate, keyOf, setData } from '../data/keys';
import { idempotent, useSubmission } from '../forms/submission';
import { NotFoundPage } from './NotFound';
import { AdminsOnly, isForbidden, READABLE_TITLE, WebhookBadges } from './Webhooks';

const VERIFY_POLL_MS = 3000;
const VERIFY_POLLS = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One webhook: its settings, verification, signing key rotation, a test event, and its delivery log. */
export function WebhookPage() {
  const id = useParams().id ?? '';
  const hook = useQuery({
    queryKey: keyOf('/webhooks/{id}', { path: { id } }),
    enabled: UUID.test(id),
    queryFn: () => unwrap(api.GET('/webhooks/{id}', { params: { path: { id } } })),
    // The validation handshake runs in the delivery worker a moment after a create or a URL change: ask again for
    // a minute so the page shows its result without a reload.
    refetchInterval: (query) =>
      query.state.data && !query.state.data.is_verified && query.state.dataUpdateCount < VERIFY_POLLS ? VERIFY_POLL_MS : false,
  });
  if (!UUID.test(id) || (hook.error instanceof LabstockError && hook.error.status === 404)) return <NotFoundPage what="webhook" />;
  if (isForbidden(hook.error)) return <AdminsOnly />;
  if (hook.isError) return <ErrorNotice error={hook.error} />;
  if (!hook.data) return <Loading label="Loading the webhook" />;
  return <WebhookView hook={hook.data} />;
}

function WebhookView({ hook }: { hook: Webhook }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const path = { params: { path: { id: hook.id } } };
  const saved = (data: Webhook) => {
    setData(queryClient, '/webhooks/{id}', { id: hook.id }, data);
    return invalidate(queryClient, '/webhooks');
  };

  type Change = { name?: string | null; url?: string; event_types?: string[]; is_signed?: boolean; is_enabled?: boolean };
  const put = (body: Change, key: string) => unwrap(api.PUT('/webhooks/{id}', { ...path, body, headers: idempotent(key) }));
  // Each action once (web/src/forms/submission.ts): a double-clicked Save, Enable or Rotate is one change.
  const update = useSubmission({
    name: `edit-webhook-${hook.id}`,
    renewOnSuccess: true,
    send: put,
    onSuccess: (data: Webhook) => {
      setEditing(false);
      return saved(data);
    },
  });
  const toggle = useSubmission({ name: `toggle-webhook-${hook.id}`, renewOnSuccess: true, send: put, onSuccess: saved });
  const rotate = useSubmission({
    name: `rotate-webhook-${hook.id}`,
    renewOnSuccess: true,
    send: (_vars, key) => unwrap(api.POST('/webhooks/{id}/rotate-secret', { ...path, headers: idempotent(key) })),
    onSuccess: saved,
  });
  const ping = useSubmission({
    name: `ping-webhook-${hook.id}`,
    renewOnSuccess: true,
    send: (_vars, key) => unwrap(api.POST('/webhooks/{id}/ping', { ...path, headers: idempotent(key) })),
    onSuccess: () => invalidate(queryClient, ['/webhooks/{id}/deliveries', { id: hook.id }]),
  });
  const remove = useSubmission({
    name: `delete-webhook-${hook.id}`,
    send: () => unwrap(api.DELETE('/webhooks/{id}', path)),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: keyOf('/webhooks/{id}', { path: { id: hook.id } }) });
      await invalidate(queryClient, '/webhooks');
      navigate('/webhooks');
    },
  });
  const edit = (values: WebhookFormValues) =>
    update.submit({ name: values.name || null, url: values.url, event_types: values.event_types, is_signed: values.is_signed });

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Anchor component={Link} to="/webhooks" size="sm">
          ← Webhooks
        </Anchor>
        <Group justify="space-between" align="start">
          <Title order={2}>{hook.name ?? 'Unnamed webhook'}</Title>
          <WebhookBadges hook={hook} />
        </Group>
      </Stack>
      <FieldGrid
        fields={[
          ['Receiver URL', hook.url],
          ['Events', hook.event_types.length === 0 ? 'every event' : hook.event_types.map(shortEventType).join(', ')],
          ['Signed', hook.is_signed ? 'yes (Standard Webhooks)' : 'no'],
          ['Id', hook.id],
        ]}
      />
      <Verification hook={hook} />

      <Group gap="xs" wrap="wrap">
        <Button onClick={() => ping.submit()} loading={ping.isPending} disabled={!hook.is_enabled}>
          Send a test event
        </Button>
        <Button variant="default" onClick={() => rotate.submit()} loading={rotate.isPending}>
          Rotate signing key
        </Button>
        <Button variant="default" onClick={() => toggle.submit({ is_enabled: !hook.is_enabled })} loading={toggle.isPending}>
          {hook.is_enabled ? 'Disable' : 'Enable'}
        </Button>
        {!editing && (
          <Button
            variant="default"
            onClick={() => {
              update.reset();
              setEditing(true);
            }}
          >
            Edit
          </Button>
        )}
        {!confirmDelete ? (
          <Button color="red" variant="light" onClick={() => setConfirmDelete(true)}>
            Delete…
          </Button>
        ) : (
          <Group gap="xs">
            <Button color="red" onClick={() => remove.submit()} loading={remove.isPending}>
              Delete the webhook and its log
            </Button>
            <Button variant="default" onClick={() => setConfirmDelete(false)}>
              Keep it
            </Button>
          </Group>
        )}
      </Group>
      {ping.isSuccess && (
        <Text role="status" size="sm" data-testid="ping-queued">
          A test event (webhook.ping) is on its way: it appears in the delivery log below.
        </Text>
      )}
      {ping.isError && <ErrorNotice error={ping.error} title="No test event sent" />}
      {rotate.isError && <ErrorNotice error={rotate.error} title="The key was not rotated" />}
      {remove.isError && <ErrorNotice error={remove.error} title="Not deleted" />}
      {toggle.isError && <ErrorNotice error={toggle.error} title="Not saved" />}
      {rotate.data && (
        <SigningKeyNotice
          signingKey={rotate.data.signing_key}
          title="The new signing key: copy it now, it is shown this once"
          note="For 24 hours every delivery is signed with the old key too (two signatures in webhook-signature), so receivers can switch without missing an event."
        />
      )}
      {!hook.is_enabled && (
        <Text size="sm">A disabled webhook receives nothing; its events can be sent later with a replay of their time range.</Text>
      )}
      {editing && (
        <Stack gap="xs">
          <Title order={3}>Edit</Title>
          <WebhookForm
            initial={hook}
            submitLabel="Save"
            pending={update.isPending}
            error={update.error}
            onSubmit={edit}
            onCancel={() => setEditing(false)}
          />
        </Stack>
      )}
      <WebhookFormat webhookId={hook.id} />
      <DeliveryLog hook={hook} />
      <ReplayForm hook={hook} />
    </Stack>
  );
}

/** The CloudEvents validation handshake's result (docs/webhooks.md, "Verification handshake"). */
function Verification({ hook }: { hook: Webhook }) {
  if (hook.is_verified) {
    return (
      <Text size="sm" data-testid="verification">
        Verified: the receiver answered the validation handshake.
      </Text>
    );
  }
  return (
    <Alert color="yellow" title="Not verified" data-testid="verification" styles={READABLE_TITLE}>
      When a webhook is created or its URL changes, Labstock sends <Code>OPTIONS</Code> with <Code>WebHook-Request-Origin</Code>; the
      receiver verifies the webhook by answering 2xx with <Code>WebHook-Allowed-Origin</Code> set to that origin or <Code>*</Code>. Changing
      the URL repeats it. Unless this service requires verification, deliveries are sent all the same.
    </Alert>
  );
}
