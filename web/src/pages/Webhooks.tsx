import { Alert, Anchor, Badge, Button, Group, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, LabstockError, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { describeEventTypes } from '../components/EventTypePicker';
import { Loading } from '../components/Fields';
import { SigningKeyNotice } from '../components/SigningKey';
import { createBody, WebhookForm, type WebhookFormValues } from '../components/WebhookForm';
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

/** The organization's webhooks: the list, a page at a time, and a form for a new one (org admins only). */
export function WebhooksPage() {
  const { organization } = useSession();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const [creating, setCreating] = useState(false);
  // The server is the guard: the list is asked for whatever the role, and a 403 shows AdminsOnly.
  const hooks = useQuery({
    queryKey: ['webhooks', page],
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const call = api.GET('/webhooks', { params: { query: { page, per_page: PER_PAGE } } });
      const rows = await unwrap(call);
      return { rows, total: Number((await call).response.headers.get('x-total-count') ?? rows.length) };
    },
  });
  // One webhook per Create, whatever the clicks and retries; the form may be opened again for another: a new key then.
  const create = useSubmission({
    name: 'new-webhook',
    renewOnSuccess: true,
    send: (values: WebhookFormValues, key) =>
      unwrap(api.POST('/webhooks', { body: createBody(values, organization.id), headers: idempotent(key) })),
    onSuccess: () => {
      setCreating(false);
      return queryClient.invalidateQueries({ queryKey: ['webhooks'] });
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
            onSubmit={create.submit}
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
      {hooks.isError && <ErrorNotice error={hooks.error} />}
      {hooks.isPending && <Loading label="Loading webhooks" />}
      {hooks.data?.rows.length === 0 && <Text data-testid="no-webhooks">No webhooks yet.</Text>}
      {hooks.data && hooks.data.rows.length > 0 && (
        <>
          <Table.ScrollContainer minWidth={640}>
            <Table striped aria-label="Webhooks" data-testid="webhooks-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Receiver URL</Table.Th>
                  <Table.Th>Events</Table.Th>
                  <Table.Th>State</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {hooks.data.rows.map((hook) => (
                  <Table.Tr key={hook.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/webhooks/${hook.id}`}>
                        {hook.name ?? 'Unnamed webhook'}
                      </Anchor>
                    </Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{hook.url}</Table.Td>
                    <Table.Td>{describeEventTypes(hook.event_types)}</Table.Td>
                    <Table.Td>
                      <WebhookBadges hook={hook} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {hooks.data.total} webhook{hooks.data.total === 1 ? '' : 's'}
            </Text>
            <Pagination
              total={Math.max(1, Math.ceil(hooks.data.total / PER_PAGE))}
              value={page}
              onChange={(n) => setParams(n === 1 ? {} : { page: String(n) })}
              getControlProps={(control) => ({ 'aria-label': `${control} page` })}
            />
          </Group>
        </>
      )}
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
        {hook.is_enabled ? 'enabled' : 'disabled'}
      </Badge>
      <Badge variant="dot" color={hook.is_verified ? 'teal' : 'yellow'} w="max-content">
        {hook.is_verified ? 'verified' : 'not verified'}
      </Badge>
      {!hook.is_signed && (
        <Badge variant="dot" color="gray" w="max-content">
          unsigned
        </Badge>
      )}
    </Group>
  );
}
