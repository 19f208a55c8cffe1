import type { components } from '@labstock/client';
import { Alert, Button, Code, CopyButton, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { fieldError } from '../../components/Profile';

type InvitedUser = components['schemas']['InvitedUser'];
type IssuedLink = components['schemas']['IssuedLink'];

/** POST /organization/users: invite by e-mail; the link is mailed when the server has SMTP, and shown once here. */
export function InviteForm({ onInvited }: { onInvited: (user: InvitedUser) => void }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'admin' | 'member'>('member');
  const invite = useMutation({
    mutationFn: () => unwrap(api.POST('/organization/users', { body: { email: email.trim(), role } })),
    onSuccess: (user) => {
      setEmail('');
      onInvited(user);
      return queryClient.invalidateQueries({ queryKey: ['organization-users'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim()) invite.mutate();
  };
  return (
    <Stack gap="xs">
      <Title order={3}>Invite someone</Title>
      <form onSubmit={submit} aria-label="Invite someone">
        <Group align="start">
          <TextInput
            label="E-mail"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fieldError(invite.error, 'email')}
            w={300}
          />
          <Select
            label="Role"
            data={[
              { value: 'member', label: 'Member' },
              { value: 'admin', label: 'Admin' },
            ]}
            value={role}
            allowDeselect={false}
            onChange={(value) => value && setRole(value as 'admin' | 'member')}
            w={140}
          />
          <Button type="submit" mt={25} loading={invite.isPending} disabled={!email.trim()}>
            Invite
          </Button>
        </Group>
      </form>
      {invite.isError && !fieldError(invite.error, 'email') && <ErrorNotice error={invite.error} title="Not invited" />}
    </Stack>
  );
}

/** A one-time link the server issued: mailed or not, it is shown this once for the admin to pass on. */
export function IssuedLinkNotice({ kind, who, link }: { kind: string; who: string; link: IssuedLink }) {
  return (
    <Alert color="green" title={`${kind} for ${who}`} role="status" data-testid="issued-link">
      <Stack gap={4}>
        <Text size="sm">
          {link.mailed ? 'It was e-mailed to them.' : 'E-mail is not set up (or failed): pass this link on yourself.'} It works once, until{' '}
          {new Date(link.expires_at).toLocaleString()}, and is shown only now.
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Code style={{ wordBreak: 'break-all' }}>{link.url}</Code>
          <CopyButton value={link.url}>
            {({ copied, copy }) => (
              <Button size="compact-xs" variant="light" onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Alert>
  );
}
