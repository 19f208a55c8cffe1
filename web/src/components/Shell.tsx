import { Anchor, AppShell, Burger, Button, Center, Group, Loader, NavLink, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { Link, Navigate, Outlet, NavLink as RouterNavLink, useLocation, useNavigate } from 'react-router';
import { api, rememberCsrfToken, unwrap } from '../api';
import { SessionProvider, useSessionQuery, useSetSession } from '../session';
import { ErrorNotice } from './ErrorNotice';

/** Every signed-in page: the header, the navigation and the page. Without a session it sends the person to sign in. */
export function Shell() {
  const location = useLocation();
  const session = useSessionQuery();
  const [opened, { toggle, close }] = useDisclosure();
  const setSession = useSetSession();
  const navigate = useNavigate();
  const signOut = useMutation({
    mutationFn: () => unwrap(api.POST('/auth/sign-out')),
    onSettled: () => {
      rememberCsrfToken(undefined);
      setSession(null);
      navigate('/sign-in');
    },
  });

  if (session.isPending) {
    return (
      <Center h="100vh">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  }
  if (session.isError) return <ErrorNotice error={session.error} />;
  if (!session.data) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  const { user, organization } = session.data;
  return (
    <SessionProvider session={session.data}>
      <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Navigation" />
              <Anchor component={Link} to="/inventory" underline="never" c="inherit">
                <Title order={1} size="h3">
                  Labstock
                </Title>
              </Anchor>
            </Group>
            <Group gap="sm" wrap="nowrap">
              <Text size="sm" visibleFrom="xs" data-testid="signed-in-as">
                {user.first_name} {user.last_name} · {organization.name}
              </Text>
              <Button variant="default" size="xs" onClick={() => signOut.mutate()} loading={signOut.isPending}>
                Sign out
              </Button>
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs" aria-label="Main">
          <Stack gap={2}>
            <NavLink component={RouterNavLink} to="/inventory" label="Inventory" onClick={close} />
            <NavLink component={RouterNavLink} to="/locations" label="Locations" onClick={close} />
            <NavLink component={RouterNavLink} to="/put-away" label="Put away" onClick={close} />
            <NavLink component={RouterNavLink} to="/types" label="Types" onClick={close} />
            <NavLink component={RouterNavLink} to="/order-requests" label="Order requests" onClick={close} />
            <NavLink component={RouterNavLink} to="/order-requests/awaiting-approval" label="Awaiting my approval" onClick={close} />
            <NavLink component={RouterNavLink} to="/shop" label="Shop" onClick={close} />
            <NavLink component={RouterNavLink} to="/labs" label="Your labs" onClick={close} />
            <NavLink component={RouterNavLink} to="/settings" label="Settings" onClick={close} />
            {organization.role === 'admin' && (
              // Org admins only (web/src/pages/admin/AdminOnly.tsx); the server refuses members anyway.
              <>
                <Text size="xs" fw={700} c="dimmed" px="sm" pt="sm" id="admin-nav">
                  Organization
                </Text>
                <NavLink component={RouterNavLink} to="/admin/members" label="Members" onClick={close} aria-describedby="admin-nav" />
                <NavLink component={RouterNavLink} to="/admin/labs" label="Labs" onClick={close} aria-describedby="admin-nav" />
                <NavLink component={RouterNavLink} to="/admin/sso" label="Single sign-on" onClick={close} aria-describedby="admin-nav" />
                <NavLink component={RouterNavLink} to="/lab-migration" label="Lab migration" onClick={close} aria-describedby="admin-nav" />
                <NavLink component={RouterNavLink} to="/webhooks" label="Webhooks" onClick={close} aria-describedby="admin-nav" />
              </>
            )}
          </Stack>
        </AppShell.Navbar>
        <AppShell.Main>
          <Outlet />
        </AppShell.Main>
      </AppShell>
    </SessionProvider>
  );
}
