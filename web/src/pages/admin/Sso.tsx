import type { components } from '@labstock/client';
import { Alert, Button, Code, Group, PasswordInput, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, LabstockError, unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Fields';
import { fieldError } from '../../components/Profile';
import { keyOf } from '../../data/keys';
import { idempotent, useSubmission } from '../../forms/submission';
import { AdminOnly } from './AdminOnly';
import { DOMAINS_KEY, SsoDomains } from './SsoDomains';

type Settings = components['schemas']['OrganizationSso'];
const KEY = keyOf('/organization/sso');

/** /app/admin/sso: the organization's OpenID Connect settings (docs/auth.md, Single sign-on). */
export function SsoPage() {
  return (
    <AdminOnly>
      <Sso />
    </AdminOnly>
  );
}

function Sso() {
  // 404 means none are set yet: an empty form, not an error.
  const settings = useQuery({
    queryKey: KEY,
    queryFn: async () => {
      try {
        return await unwrap(api.GET('/organization/sso'));
      } catch (err) {
        if (err instanceof LabstockError && err.status === 404) return null;
        throw err;
      }
    },
  });
  return (
    <Stack gap="lg">
      <Title order={2}>Single sign-on</Title>
      <Text size="sm" maw={720}>
        Your people sign in through your organization's OpenID provider (authorization code with PKCE). Accounts are made at their first
        sign-in only for the allowed e-mail domains, once each is verified (a DNS TXT record, or your installation's operator). People who
        already have an account link the provider to it once, in their Settings. A domain another organization has claimed cannot be added.
      </Text>
      {settings.isError && <ErrorNotice error={settings.error} />}
      {settings.isPending && <Loading label="Loading the single sign-on settings" />}
      {settings.data !== undefined && <SsoForm current={settings.data} />}
      {settings.data && <SsoDomains />}
    </Stack>
  );
}

function SsoForm({ current }: { current: Settings | null }) {
  const queryClient = useQueryClient();
  const [issuer, setIssuer] = useState(current?.issuer ?? '');
  const [clientId, setClientId] = useState(current?.client_id ?? '');
  const [secret, setSecret] = useState('');
  const [domains, setDomains] = useState(current?.allowed_domains.join(', ') ?? '');
  const [enabled, setEnabled] = useState(current?.enabled ?? true);
  const save = useSubmission({
    name: 'sso-settings',
    renewOnSuccess: true,
    send: (_vars, key) =>
      unwrap(
        api.PUT('/organization/sso', {
          headers: idempotent(key),
          body: {
            issuer: issuer.trim(),
            client_id: clientId.trim(),
            // Left empty, the stored secret is kept (it is never shown again).
            ...(secret ? { client_secret: secret } : {}),
            allowed_domains: domains
              .split(/[\s,]+/)
              .map((d) => d.trim())
              .filter(Boolean),
            enabled,
          },
        }),
      ),
    onSuccess: (data) => {
      setSecret('');
      queryClient.setQueryData(KEY, data);
      queryClient.invalidateQueries({ queryKey: DOMAINS_KEY });
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/organization/sso')),
    onSuccess: () => queryClient.setQueryData(KEY, null),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.submit();
  };
  const fields = ['issuer', 'client_id', 'client_secret', 'allowed_domains', 'enabled'];
  const named = save.error instanceof LabstockError ? save.error.errors.filter((e) => fields.some((f) => e.field.startsWith(f))) : [];
  const shown = save.isError && named.length === 0;
  // Each refused domain is its own field (allowed_domains[2]): all of them under the one input.
  const domainError =
    named
      .filter((e) => e.field.startsWith('allowed_domains'))
      .map((e) => e.message)
      .join('; ') || undefined;
  const redirect = current?.redirect_uri ?? `${window.location.origin}/auth/sso/callback`;
  return (
    <form onSubmit={submit} aria-label="Single sign-on settings">
      <Stack gap="sm" maw={560}>
        <Text size="sm">
          Register this redirect URI at the provider, with the scopes <Code>openid email profile</Code>: <Code>{redirect}</Code>
        </Text>
        {shown && <ErrorNotice error={save.error} title="Not saved" />}
        <TextInput
          label="Issuer URL"
          required
          placeholder="https://login.example.org/realms/lab"
          value={issuer}
          onChange={(e) => setIssuer(e.currentTarget.value)}
          error={fieldError(save.error, 'issuer')}
        />
        <TextInput
          label="Client ID"
          required
          value={clientId}
          onChange={(e) => setClientId(e.currentTarget.value)}
          error={fieldError(save.error, 'client_id')}
        />
        <PasswordInput
          label="Client secret"
          required={!current?.client_secret_set}
          autoComplete="off"
          description={
            current?.client_secret_set ? 'A secret is stored and never shown. Leave empty to keep it.' : 'Required the first time.'
          }
          value={secret}
          onChange={(e) => setSecret(e.currentTarget.value)}
          error={fieldError(save.error, 'client_secret')}
        />
        <TextInput
          label="Allowed e-mail domains"
          description="Comma-separated, e.g. lab.example, institute.example"
          value={domains}
          onChange={(e) => setDomains(e.currentTarget.value)}
          error={domainError}
        />
        <Switch label="Single sign-on is on" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
          {current && (
            <Button variant="light" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              Remove single sign-on
            </Button>
          )}
        </Group>
        {save.isSuccess && (
          <Alert color="green" role="status" data-testid="sso-saved">
            Saved.
          </Alert>
        )}
        {remove.isError && <ErrorNotice error={remove.error} title="Not removed" />}
      </Stack>
    </form>
  );
}
