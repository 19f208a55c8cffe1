import { Alert, Anchor, Button, Center, Divider, Group, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { api, rememberCsrfToken, unwrap } from '../api';
import { Brand } from '../components/Brand';
import { ErrorNotice } from '../components/ErrorNotice';
import { useSessionQuery, useSetSession } from '../session';

/** What a refused single sign-on means (the codes of docs/errors.md that /auth/sso/callback redirects with). */
const SSO_ERRORS: Record<string, string> = {
  sso_unavailable: 'Single sign-on is not set up for that address or organization.',
  sso_flow_missing: 'The single sign-on took too long or was started in another browser. Try again.',
  sso_state_mismatch: 'The single sign-on was started again in another tab. Try again here.',
  sso_code_rejected: 'Your identity provider’s answer was used already or expired. Try again.',
  sso_provider_error: 'Your identity provider refused or could not be reached.',
  sso_email_unverified: 'Your identity provider has not verified your e-mail address.',
  sso_domain_not_allowed: 'Your e-mail address is not one this organization lets in by single sign-on. Ask an admin to invite you.',
  sso_account_deactivated: 'Your account in this organization is deactivated.',
  sso_start_cross_site: 'Single sign-on can be started only from this page. Use the button below.',
  sso_account_not_linked:
    'You have an account already: sign in with your password, then choose “Link single sign-on” in Settings to use your identity provider.',
};

/** Where to go after signing in: only a path inside the app, never another site. */
function safeNext(next: string | null): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/inventory';
}

export function SignInPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const session = useSessionQuery();
  const setSession = useSetSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: () => unwrap(api.POST('/auth/sign-in', { body: { email, password } })),
    onSuccess: (signedIn) => {
      rememberCsrfToken(signedIn.csrf_token);
      setSession(signedIn);
      navigate(next, { replace: true });
    },
  });

  if (session.data) return <Navigate to={next} replace />;
  const ssoError = params.get('error');
  // Single sign-on is a navigation, not an API call: the server redirects to the identity provider and back.
  const startSso = () => {
    const query = new URLSearchParams({ email, return_to: `/app${next}` });
    window.location.assign(`/auth/sso/start?${query}`);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={400} component="main">
        <form onSubmit={submit}>
          <Stack>
            <Group justify="center" data-testid="sign-in-brand">
              <Brand />
            </Group>
            <Title order={1} size="h2">
              Sign in to Labstock
            </Title>
            {ssoError && (
              <Alert color="red" title="Single sign-on failed" role="alert">
                {SSO_ERRORS[ssoError] ?? 'Single sign-on did not complete.'}
              </Alert>
            )}
            {signIn.isError && <ErrorNotice error={signIn.error} title="Not signed in" />}
            <TextInput
              label="E-mail"
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <Button type="submit" loading={signIn.isPending}>
              Sign in
            </Button>
            <Anchor component={Link} to="/password-reset" size="sm">
              Forgot your password?
            </Anchor>
            <Divider label="or" />
            <Button variant="default" onClick={startSso} disabled={!email.includes('@')}>
              Sign in with single sign-on
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
