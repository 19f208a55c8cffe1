import { Alert, Button, Group, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, LabstockError, unwrap } from '../api';
import { useSubmission } from '../forms/submission';
import { useSession, useSetSession } from '../session';
import { ErrorNotice } from './ErrorNotice';

/** The server's message for one field of a 422 (docs/errors.md), to show under that input. */
export function fieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof LabstockError)) return undefined;
  return error.errors.find((e) => e.field === field)?.message;
}

/** An error that names none of the form's fields is shown above it (a 401, 429, or a 422 on another field). */
const namesAField = (error: unknown, fields: string[]) => fields.some((f) => fieldError(error, f) !== undefined);

/** PUT /user: the person's own name. The header reads the session, so the new name replaces the session's user. */
export function ProfileForm() {
  const session = useSession();
  const setSession = useSetSession();
  const [first, setFirst] = useState(session.user.first_name);
  const [last, setLast] = useState(session.user.last_name);
  // The name shows in every organization: a person of several confirms a change with their password (docs/auth.md).
  const [current, setCurrent] = useState('');
  const several = session.organizations.length > 1;
  // Sent once (a double-click is one save); the server takes no Idempotency-Key here, the body may hold a password.
  const save = useSubmission({
    name: 'profile-name',
    send: () =>
      unwrap(
        api.PUT('/user', {
          body: { first_name: first, last_name: last, ...(several ? { current_password: current } : {}) },
        }),
      ),
    onSuccess: (user) => setSession({ ...session, user }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.submit();
  };
  const unchanged = first === session.user.first_name && last === session.user.last_name;
  return (
    <Stack>
      <Title order={3}>Profile</Title>
      <form onSubmit={submit} aria-label="Profile">
        <Stack gap="sm" maw={520}>
          {save.isError && !namesAField(save.error, ['first_name', 'last_name', 'current_password']) && (
            <ErrorNotice error={save.error} title="Not saved" />
          )}
          <Group grow align="start">
            <TextInput
              label="First name"
              required
              maxLength={100}
              autoComplete="given-name"
              value={first}
              onChange={(e) => setFirst(e.currentTarget.value)}
              error={fieldError(save.error, 'first_name')}
            />
            <TextInput
              label="Last name"
              required
              maxLength={100}
              autoComplete="family-name"
              value={last}
              onChange={(e) => setLast(e.currentTarget.value)}
              error={fieldError(save.error, 'last_name')}
            />
          </Group>
          {several && (
            <PasswordInput
              label="Current password"
              description="You belong to several organizations and your name shows in all of them."
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.currentTarget.value)}
              error={fieldError(save.error, 'current_password')}
            />
          )}
          <TextInput
            label="E-mail"
            value={session.user.email}
            readOnly
            description="You sign in with it; an admin cannot change it either."
          />
          <Group>
            <Button type="submit" loading={save.isPending} disabled={unchanged}>
              Save name
            </Button>
          </Group>
          {save.isSuccess && unchanged && (
            <Alert color="green" role="status" data-testid="profile-saved">
              Saved.
            </Alert>
          )}
        </Stack>
      </form>
    </Stack>
  );
}

/** PUT /user/password: the current password and a new one; the server's rules decide (docs/auth.md, Passwords). */
export function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const change = useMutation({
    mutationFn: () => unwrap(api.PUT('/user/password', { body: { current_password: current, new_password: next } })),
    onSuccess: () => {
      setCurrent('');
      setNext('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate();
  };
  return (
    <Stack>
      <Title order={3}>Password</Title>
      <form onSubmit={submit} aria-label="Change password">
        <Stack gap="sm" maw={520}>
          {change.isError && !namesAField(change.error, ['current_password', 'new_password']) && (
            <ErrorNotice error={change.error} title="Not changed" />
          )}
          <PasswordInput
            label="Current password"
            required
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            error={fieldError(change.error, 'current_password')}
          />
          <PasswordInput
            label="New password"
            description="At least 12 characters; not a common password, a run like 123456789012, or your e-mail address"
            required
            autoComplete="new-password"
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
            error={fieldError(change.error, 'new_password')}
          />
          <Group>
            <Button type="submit" loading={change.isPending} disabled={!current || !next}>
              Change password
            </Button>
          </Group>
          {change.isSuccess && (
            <Alert color="green" role="status" data-testid="password-changed">
              Your password is changed. Your other sessions have ended; this one and your API tokens go on.
            </Alert>
          )}
        </Stack>
      </form>
    </Stack>
  );
}
