import type { components } from '@labstock/client';
import { Alert, Button, Code, CopyButton, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { fieldError } from '../../components/Profile';
import { useLabs } from '../../data/hooks';
import { invalidate } from '../../data/keys';
import { LabPicker } from '../../data/Pickers';
import { idempotent, useSubmission } from '../../forms/submission';

type IssuedLink = components['schemas']['IssuedLink'];
type InvitedUser = components['schemas']['InvitedUser'];

/**
 * POST /organization/users: invite a person by name and e-mail, optionally into a lab (then
 * POST /organization/labs/{id}/members). The button says who joins what ("Invite Ada Lovelace to Cell Biology"). One
 * invitation per intention, however often it is clicked (useSubmission); the link is mailed when the server has SMTP,
 * and shown once here.
 */
export function InviteForm({ onInvited }: { onInvited: (who: string, link: IssuedLink) => void }) {
  const queryClient = useQueryClient();
  const labs = useLabs();
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'admin' | 'member'>('member');
  const [labId, setLabId] = useState<string | null>(null);
  const [labError, setLabError] = useState<{ who: string; lab: string; error: unknown } | null>(null);
  const person = `${first.trim()} ${last.trim()}`.trim();
  const labName = labs.data?.find((l) => l.id === labId)?.name;
  const invite = useSubmission<{ user: InvitedUser; failed: unknown }>({
    name: 'invite',
    renewOnSuccess: true,
    send: async (_, key) => {
      const body = {
        email: email.trim(),
        role,
        ...(first.trim() ? { first_name: first.trim() } : {}),
        ...(last.trim() ? { last_name: last.trim() } : {}),
      };
      const user = await unwrap(api.POST('/organization/users', { body, headers: idempotent(key) }));
      let failed: unknown = null;
      if (labId) {
        await unwrap(
          api.POST('/organization/labs/{id}/members', {
            params: { path: { id: labId } },
            body: { user_id: user.id, role: 'member' },
            headers: idempotent(`${key}.lab`),
          }),
        ).catch((err: unknown) => {
          failed = err;
        });
      }
      return { user, failed };
    },
    onSuccess: ({ user, failed }) => {
      const who = person ? `${person} (${user.email})` : user.email;
      setLabError(failed && labName ? { who, lab: labName, error: failed } : null);
      setFirst('');
      setLast('');
      setEmail('');
      setLabId(null);
      onInvited(who, user.invitation);
      return invalidate(queryClient, '/organization/users', ['/organization/labs/{id}/members', { id: labId ?? '' }]);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim()) invite.submit();
  };
  const label = `Invite ${person || email.trim() || 'someone'}${labName ? ` to ${labName}` : ''}`;
  return (
    <Stack gap="xs">
      <Title order={3}>Invite someone</Title>
      <form onSubmit={submit} aria-label="Invite someone">
        <Group align="start" gap="sm">
          <TextInput label="First name" maxLength={200} value={first} onChange={(e) => setFirst(e.currentTarget.value)} w={180} />
          <TextInput label="Last name" maxLength={200} value={last} onChange={(e) => setLast(e.currentTarget.value)} w={180} />
          <TextInput
            label="E-mail"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fieldError(invite.error, 'email')}
            w={260}
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
          <LabPicker label="Joins the lab" placeholder="No lab yet" clearable value={labId} onChange={setLabId} w={220} />
        </Group>
        <Button type="submit" mt="sm" loading={invite.isPending} disabled={!email.trim()} maw="100%">
          <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{label}</span>
        </Button>
      </form>
      {invite.isError && !fieldError(invite.error, 'email') && <ErrorNotice error={invite.error} title="Not invited" />}
      {labError && <ErrorNotice error={labError.error} title={`${labError.who} was invited, but not added to ${labError.lab}`} />}
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
        {/* The button wraps under a long link on a phone rather than being cut off at the card's edge. */}
        <Group gap="xs">
          <Code style={{ wordBreak: 'break-all', minWidth: 0 }}>{link.url}</Code>
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
