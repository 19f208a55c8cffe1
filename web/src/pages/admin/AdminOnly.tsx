import { Anchor, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../session';

/**
 * The organization's administration (docs/auth.md): only for org admins. A member who opens one of these addresses
 * sees this and nothing else; no call is made, and the API would refuse it anyway (403).
 */
export function AdminOnly({ children }: { children: ReactNode }) {
  const { organization } = useSession();
  if (organization.role === 'admin') return children;
  return (
    <Stack gap="xs" data-testid="not-allowed">
      <Title order={2}>Not allowed</Title>
      <Text>Only the organization's admins manage its members, labs and single sign-on.</Text>
      <Anchor component={Link} to="/inventory">
        Back to the inventory
      </Anchor>
    </Stack>
  );
}
