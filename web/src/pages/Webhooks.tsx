import type { components } from '@labstock/client';
import { Alert, Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, LabstockError, unwrap } from '../api';
import { describeEventTypes } from '../components/EventTypePicker';
import { SigningKeyNotice } from '../components/SigningKey';
import { createBody, WebhookForm, type WebhookFormValues } from '../components/WebhookForm';
import { type Column, DataTable } from '../data/DataTable';
import { usePage } from '../data/hooks';
import { invalidate } from '../data/keys';
import { useTableState } from '../data/table-state';
import { idempotent, useSubmission } from '../forms/submission';
import { useSession } from '../session';

const PER_PAGE = 25;

/** An Alert's title in the text colour: Mantine's light green and yellow titles fall short of AA contrast (test/helpers/axe.ts). */
export const READABLE_TITLE = { title: { color: 'var(--mantine-color-text)' } };

/** A 403 from the webhook operations: they are the organization admins' (docs/api.md: responses carry the signing key). */
export const isForbidden = (err: unknown) => err instanceof LabstockError && err.status === 403;

/** What a member sees instead of the webhooks: the API refuses them (403), and the page says so. */
export function AdminsOnly() {
  return (
    <Alert color="yellow" title="Webhooks are for organization admins" data-testid="admins-only" styles={READABLE_TITLE}>
      Webhook settings carry the signing key that authenticates deliveries, so only an admin of {useSession().organization.name} may see or
      change them. Ask one if your lab needs a webhook.
    </Alert>
  );
}

type Webhook = components['schemas']['Webhook'];

const COLUMNS: Column<Webhook>[] = [
  {
    key: 'name',
    header: 'Name',
    phone: 'title',
    cell: (hook) => (
      <Anchor component={Link} to={`/webhooks/${hook.id}`} fw={500}>
        {hook.name ?? 'Unnamed webhook'}
      </Anchor>
    ),
  },
  { key: 'url', header: 'Receiver URL', cell: (hook) => <span style={{ wordBreak: 'break-all' }}>{hook.url}</span> },
  { key: 'events', header: 'Events', cell: (hook) => describeEventTypes(hook.event_types) },
  { key: 'state', header: 'State', cell: (hook) => <WebhookBadges hook={hook} /> },
];

/** The organization's webhooks: the list, a page at a time, and a form for a new one (org admins only). */
export function WebhooksPage() {
  const { organization } = useSession();
  const queryClient = useQueryClient();
  const table = useTableState({ perPage: PER_PAGE });
  const [creating, setCreating] = useState(false);
  // The server is the guard: the list is asked for whatever the role, and a 403 shows AdminsOnly.
  const hooks = usePage('/webhooks', { query: { page: table.page, per_page: PER_PAGE } });
  const create = useSubmission({
    name: 'create-webhook',
    send: (values: WebhookFormValues, key) =>
      unwrap(api.POST('/webhooks', { body: createBody(values, organization.id), headers: idempotent(key) })),
    // The form stays on the page for another webhook: the next one is another intention.
    renewOnSuccess: true,
    onSuccess: () => {
      setCreating(false);
      return invalidate(queryClient, '/webhooks');
    },
  });

  if (isForbidden(hooks.error)) {
    return (
      <Stack>
        <Title order={2}>Webhooks</Title>
        <AdminsOnly />
      </Stack>
    );
  }
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Webhooks</Title>
        {!creating && hooks.data && (
          <Button
            onClick={() => {
              create.reset();
              setCreating(true);
            }}
          >
            New webhook
          </Button>
        )}
      </Group>
      <Text size="sm">
        Labstock sends each change of your organization to these addresses as a signed CloudEvent; each webhook's page shows what was sent
        and how the receiver answered.
      </Text>
      {creating && (
        <Stack gap="xs" p="md" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}>
          <Title order={3}>New webhook</Title>
          <WebhookForm
            submitLabel="Create webhook"
            pending={create.isPending}
            error={create.error}
            onSubmit={(values) => create.submit(values)}
            onCancel={() => setCreating(false)}
          />
        </Stack>
      )}
      {create.data && (
        <Stack gap="xs">
          <SigningKeyNotice
            signingKey={create.data.signing_key}
            title="Copy the signing key now: it is shown this once"
            note="Receivers verify each delivery's signature with it. Rotating it on the webhook's page issues a new one."
          />
          <Anchor component={Link} to={`/webhooks/${create.data.id}`}>
            Open {create.data.name ?? create.data.url}
          </Anchor>
        </Stack>
      )}
      <DataTable
        label="Webhooks"
        testId="webhooks-table"
        emptyTestId="no-webhooks"
        query={hooks}
        columns={COLUMNS}
        rowKey={(hook) => hook.id}
        page={table.page}
        perPage={PER_PAGE}
        onPage={table.setPage}
        noun={['webhook', 'webhooks']}
        empty="No webhooks yet."
        loadingLabel="Loading webhooks"
      />
    </Stack>
  );
}

/**
 * Enabled or disabled, verified or not: the two states a webhook's owner acts on. Dot badges keep the text in the
 * page's text colour; white on Mantine's filled green or yellow falls short of WCAG AA contrast (test/helpers/axe.ts).
 */
export function WebhookBadges({ hook }: { hook: { is_enabled: boolean; is_verified: boolean; is_signed: boolean } }) {
  return (
    <Group gap={4} wrap="wrap">
      <Badge variant="dot" color={hook.is_enabled ? 'green' : 'gray'} w="max-content">
        {hook.is_enabled ? 'Enabled' : 'Disabled'}
      </Badge>
      <Badge variant="dot" color={hook.is_verified ? 'teal' : 'yellow'} w="max-content">
        {hook.is_verified ? 'Verified' : 'Not verified'}
      </Badge>
      {!hook.is_signed && (
        <Badge variant="dot" color="gray" w="max-content">
          Unsigned
        </Badge>
      )}
    </Group>
  );
}
