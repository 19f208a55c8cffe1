import { Button, Center, Loader, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, LabstockError, rememberCsrfToken, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { keyOf } from '../data/keys';
import { useSetSession } from '../session';

/** The page an invitation link opens (/app/invitations/{token}): name and password, then signed in. */
export function InvitationPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const setSession = useSetSession();
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [password, setPassword] = useState('');
  const invitation = useQuery({
    queryKey: keyOf('/auth/invitations/{token}', { path: { token } }),
    queryFn: () => unwrap(api.GET('/auth/invitations/{token}', { params: { path: { token } } })),
    retry: false,
  });
  const accept = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/auth/invitations/accept', {
          body: invitation.data?.existing_account
            ? { token, password }
            : { token, password, first_name: firstName.trim(), last_name: lastName.trim() },
        }),
      ),
    onSuccess: (session) => {
      rememberCsrfToken(session.csrf_token);
      setSession(session);
      navigate('/inventory', { replace: true });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    accept.mutate();
  };
  if (invitation.isPending)
    return (
      <Frame>
        <Loader role="status" aria-label="Checking the invitation" />
      </Frame>
    );
  if (invitation.isError) {
    const gone = invitation.error instanceof LabstockError && invitation.error.status === 404;
    return (
      <Frame>
        <Title order={1} size="h2">
          Invitation
        </Title>
        {gone ? (
          <Text data-testid="link-invalid">
            This invitation link is not valid any more: it was used, replaced or has expired. Ask your organization admin for a new one.
          </Text>
        ) : (
          <ErrorNotice error={invitation.error} />
        )}
      </Frame>
    );
  }
  const { email, organization, existing_account } = invitation.data;
  return (
    <Frame>
      <form onSubmit={submit}>
        <Stack>
          <Title order={1} size="h2">
            Join {organization.name}
          </Title>
          <Text size="sm">
            You were invited as {email}.
            {existing_account
              ? ' Confirm with the password of your Labstock account.'
              : ' Choose your name and a password (at least 12 characters).'}
          </Text>
          {accept.isError && <ErrorNotice error={accept.error} title="Not accepted" />}
          {!existing_account && (
            <>
              <TextInput
                label="First name"
                required
                autoComplete="given-name"
                value={firstName}
                onChange={(e) => setFirstName(e.currentTarget.value)}
              />
              <TextInput
                label="Last name"
                required
                autoComplete="family-name"
                value={lastName}
                onChange={(e) => setLastName(e.currentTarget.value)}
              />
            </>
          )}
          <PasswordInput
            label="Password"
            required
            autoComplete={existing_account ? 'current-password' : 'new-password'}
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Button type="submit" loading={accept.isPending}>
            Join and sign in
          </Button>
        </Stack>
      </form>
    </Frame>
  );
}

export function Frame({ children }: { children: ReactNode }) {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={440} component="main">
        <Stack>{children}</Stack>
      </Paper>
    </Center>
  );
}
