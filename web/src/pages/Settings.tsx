import { Alert, Button, Code, CopyButton, Group, Loader, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { PasswordForm, ProfileForm } from '../components/Profile';
import { invalidate, keyOf, setData } from '../data/keys';
import { idempotent, useSubmission } from '../forms/submission';
import { useSession } from '../session';

/** The person's own settings: profile, API tokens (the contract's "from that user's settings"), notifications. */
export function SettingsPage() {
  const { user, organization } = useSession();
  return (
    <Stack gap="xl">
      <Stack gap={4}>
        <Title order={2}>Settings</Title>
        <Text>
          {user.first_name} {user.last_name} · {user.email} · {organization.name}
        </Text>
      </Stack>
      <ProfileForm />
      <PasswordForm />
      <SingleSignOn />
      <Tokens />
      <Notifications />
    </Stack>
  );
}

/** What a refused link means (the codes /auth/sso/callback redirects here with, docs/errors.md). */
const SSO_LINK_ERRORS: Record<string, string> = {
  sso_link_session_missing: 'The link was finished in another session. Try again from here.',
  sso_identity_in_use: 'That identity provider account is linked to another person here.',
};

/** "Link single sign-on" (docs/auth.md, Linking): shown when the organization has SSO enabled. */
function SingleSignOn() {
  const [params] = useSearchParams();
  const state = useQuery({ queryKey: keyOf('/auth/sso/link'), queryFn: () => unwrap(api.GET('/auth/sso/link')) });
  const link = useMutation({
    mutationFn: () => unwrap(api.POST('/auth/sso/link', { body: {} })),
    // The answer set this flow's cookie: a second start would replace it and the first provider's answer would then
    // be refused, so the button stays busy until the browser has left (isSuccess below).
    onSuccess: ({ url }) => window.location.assign(url),
  });
  if (!state.data?.available) return null;
  const error = params.get('sso_error');
  return (
    <Stack>
      <Title order={3}>Single sign-on</Title>
      {params.get('sso') === 'linked' && (
        <Alert color="green" role="status">
          Single sign-on is linked: you can now sign in through your organization's identity provider.
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert" title="Not linked">
          {SSO_LINK_ERRORS[error] ?? 'Your identity provider refused or could not be reached.'}
        </Alert>
      )}
      {state.data.linked ? (
        <Text>Your account is linked to your organization's identity provider.</Text>
      ) : (
        <Group>
          <Button variant="light" loading={link.isPending || link.isSuccess} onClick={() => link.mutate()}>
            Link single sign-on
          </Button>
        </Group>
      )}
      {link.isError && <ErrorNotice error={link.error} title="Not started" />}
    </Stack>
  );
}

function Tokens() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const tokens = useQuery({ queryKey: keyOf('/user/tokens'), queryFn: () => unwrap(api.GET('/user/tokens')) });
  // One token per Create token, however often it is clicked: the server claims the key but keeps no copy of the
  // answer (it holds the secret), so a retry of a created token is refused instead of making a second (docs/auth.md).
  const create = useSubmission({
    name: 'new-token',
    renewOnSuccess: true,
    send: (_, key) => unwrap(api.POST('/user/tokens', { body: { name: name.trim() }, headers: idempotent(key) })),
    onSuccess: () => {
      setName('');
      return invalidate(queryClient, '/user/tokens');
    },
  });
  const revoke = useSubmission({
    name: 'revoke-token',
    send: (id: string) => unwrap(api.DELETE('/user/tokens/{id}', { params: { path: { id } } })),
    onSuccess: () => invalidate(queryClient, '/user/tokens'),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.submit();
  };
  return (
    <Stack>
      <Title order={3}>API tokens</Title>
      <Text size="sm">
        Scripts, ELNs and LIMS use a token as the Access-Token header. It acts as you, in {useSession().organization.name}.
      </Text>
      <form onSubmit={submit}>
        <Group align="end">
          <TextInput
            label="New token's name"
            placeholder="e.g. ELN sync"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            w={260}
          />
          <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
            Create token
          </Button>
        </Group>
      </form>
      {create.isError && <ErrorNotice error={create.error} title="No token created" />}
      {create.data && (
        <Alert color="green" title="Copy the token now: it is shown this once" role="status">
          <Group gap="xs" wrap="nowrap">
            <Code data-testid="new-token">{create.data.token}</Code>
            <CopyButton value={create.data.token}>
              {({ copied, copy }) => (
                <Button size="compact-xs" variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Alert>
      )}
      {tokens.isError && <ErrorNotice error={tokens.error} />}
      {tokens.isPending && <Loader size="sm" role="status" aria-label="Loading tokens" />}
      {tokens.data && tokens.data.length === 0 && <Text c="dimmed">No tokens yet.</Text>}
      {tokens.data && tokens.data.length > 0 && (
        <Table.ScrollContainer minWidth={500}>
          <Table aria-label="Your tokens" data-testid="tokens-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.data.map((token) => (
                <Table.Tr key={token.id}>
                  <Table.Td>{token.name ?? '—'}</Table.Td>
                  <Table.Td>{new Date(token.created_at).toLocaleDateString()}</Table.Td>
                  <Table.Td>{token.last_used_at ? new Date(token.last_used_at).toLocaleString() : 'never'}</Table.Td>
                  <Table.Td>{token.expires_at ? new Date(token.expires_at).toLocaleDateString() : 'never'}</Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-xs"
                      color="red"
                      variant="light"
                      aria-label={`Revoke ${token.name ?? 'token'}`}
                      loading={revoke.isPending && revoke.variables === token.id}
                      onClick={() => revoke.submit(token.id)}
                    >
                      Revoke
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {revoke.isError && <ErrorNotice error={revoke.error} title="Not revoked" />}
    </Stack>
  );
}

function Notifications() {
  const queryClient = useQueryClient();
  const prefs = useQuery({ queryKey: keyOf('/user/notifications'), queryFn: () => unwrap(api.GET('/user/notifications')) });
  const save = useSubmission({
    name: 'notifications',
    renewOnSuccess: true,
    send: (email_digest: boolean, key) => unwrap(api.PUT('/user/notifications', { body: { email_digest }, headers: idempotent(key) })),
    onSuccess: (data) => setData(queryClient, '/user/notifications', {}, data),
  });
  return (
    <Stack>
      <Title order={3}>Notifications</Title>
      {prefs.isError && <ErrorNotice error={prefs.error} />}
      {prefs.data && (
        <Switch
          label="A daily e-mail with the reminders and alerts of my labs (expiring and below minimum)"
          checked={prefs.data.email_digest}
          disabled={save.isPending}
          onChange={(e) => save.submit(e.currentTarget.checked)}
        />
      )}
      {save.isError && <ErrorNotice error={save.error} title="Not saved" />}
    </Stack>
  );
}
