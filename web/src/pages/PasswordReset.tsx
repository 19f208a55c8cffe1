import { Anchor, Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, LabstockError, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Frame } from './Invitation';

/** "Forgot your password?": asks for a link by e-mail; the answer never says whether the address has an account. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const request = useMutation({ mutationFn: () => unwrap(api.POST('/auth/password-reset', { body: { email: email.trim() } })) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate();
  };
  return (
    <Frame>
      <form onSubmit={submit}>
        <Stack>
          <Title order={1} size="h2">
            Reset your password
          </Title>
          {request.isSuccess ? (
            <Text data-testid="reset-requested">
              If {email} has an account, a link to set a new password is on its way. It works for one hour.
            </Text>
          ) : (
            <>
              {request.isError && <ErrorNotice error={request.error} />}
              <TextInput
                label="E-mail"
                type="email"
                required
                autoComplete="username"
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
              />
              <Button type="submit" loading={request.isPending}>
                Send me a link
              </Button>
            </>
          )}
          <Anchor component={Link} to="/sign-in" size="sm">
            Back to sign-in
          </Anchor>
        </Stack>
      </form>
    </Frame>
  );
}

/** The page a reset link opens (/app/password-reset/{token}): a new password, then sign in with it. */
export function PasswordResetPage() {
  const { token = '' } = useParams();
  const [password, setPassword] = useState('');
  const complete = useMutation({ mutationFn: () => unwrap(api.POST('/auth/password-reset/complete', { body: { token, password } })) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    complete.mutate();
  };
  const gone = complete.error instanceof LabstockError && complete.error.status === 404;
  return (
    <Frame>
      <form onSubmit={submit}>
        <Stack>
          <Title order={1} size="h2">
            Choose a new password
          </Title>
          {complete.isSuccess ? (
            <Text data-testid="reset-done">
              Your password is changed and every session of yours has ended.{' '}
              <Anchor component={Link} to="/sign-in">
                Sign in
              </Anchor>{' '}
              with the new one.
            </Text>
          ) : (
            <>
              {gone && (
                <Text data-testid="link-invalid">
                  This link is not valid any more: it was used, replaced or has expired. Ask for a new one.
                </Text>
              )}
              {complete.isError && !gone && <ErrorNotice error={complete.error} title="Not changed" />}
              <PasswordInput
                label="New password"
                description="At least 12 characters"
                required
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
              <Button type="submit" loading={complete.isPending}>
                Set the password
              </Button>
            </>
          )}
        </Stack>
      </form>
    </Frame>
  );
}
