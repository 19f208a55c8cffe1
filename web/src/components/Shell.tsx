import { Alert, Anchor, AppShell, Burger, Button, Center, Group, Loader, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconLogout } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { api, describeError, rememberCsrfToken, unwrap } from '../api';
import { lastLabOf, rememberLab } from '../last-lab';
import { ScanListener } from '../scan/ScanListener';
import { SessionProvider, useSessionQuery, useSetSession } from '../session';
import { Brand } from './Brand';
import { ConnectionBanner } from './ConnectionBanner';
import { Navigation } from './Navigation';

// The pages that show one lab at a time open the lab last worked in. Not the inventory: it lists every lab by default
// and remembers its own lab filter, "All my labs" included (web/src/pages/Inventory.tsx).
const LAB_PAGES = new Set(['/locations', '/inventory/items/new']);

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
  const userId = session.data?.user.id;
  const shownLab = new URLSearchParams(location.search).get('lab');
  // Whatever lab a page shows is the one the person works in now.
  useEffect(() => {
    if (userId && shownLab) rememberLab(userId, shownLab);
  }, [userId, shownLab]);

  if (session.isPending) {
    return (
      <Center h="100vh">
        <Loader role="status" aria-label="Loading" />
      </Center>
    );
  }
  if (session.isError) {
    return (
      <Center h="100vh" p="md">
        <Alert color="red" title="Labstock could not be reached" role="alert" maw={480}>
          <Text size="sm" mb="sm">
            {describeError(session.error)}
          </Text>
          <Button onClick={() => session.refetch()} loading={session.isFetching}>
            Retry
          </Button>
        </Alert>
      </Center>
    );
  }
  if (!session.data) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  const remembered = LAB_PAGES.has(location.pathname) && !shownLab ? lastLabOf(session.data.user.id) : null;
  if (remembered) {
    const params = new URLSearchParams(location.search);
    params.set('lab', remembered);
    return <Navigate to={`${location.pathname}?${params}${location.hash}`} replace />;
  }
  const { user, organization } = session.data;
  return (
    <SessionProvider session={session.data}>
      <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Navigation" />
              <Anchor component={Link} to="/" underline="never" aria-label="Labstock, home">
                <Brand />
              </Anchor>
            </Group>
            <Group gap="sm" wrap="nowrap">
              <Text size="sm" visibleFrom="xs" data-testid="signed-in-as">
                {user.first_name} {user.last_name} · {organization.name}
              </Text>
              <Button
                variant="default"
                size="xs"
                leftSection={<IconLogout size={16} aria-hidden />}
                onClick={() => signOut.mutate()}
                loading={signOut.isPending}
              >
                Sign out
              </Button>
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs" aria-label="Main">
          {/* The entries outgrow a short window (a laptop's, a phone's): the list scrolls inside the bar. */}
          <AppShell.Section grow component={ScrollArea} type="auto">
            <Navigation onNavigate={close} />
          </AppShell.Section>
        </AppShell.Navbar>
        <AppShell.Main>
          <ConnectionBanner />
          <ScanListener />
          <Outlet />
        </AppShell.Main>
      </AppShell>
    </SessionProvider>
  );
}
