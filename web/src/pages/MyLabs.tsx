import type { components } from '@labstock/client';
import { Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import { useApprovalSettings, useLabs } from '../data/hooks';

type Lab = components['schemas']['Lab'];
const ROLE: Record<string, string> = { member: 'Member', approver: 'Approver', manager: 'Manager' };

/**
 * /app/labs: the labs the person sees with their role in each (docs/ordering.md, Lab roles), and the settings of those
 * they manage (all of them: every page of GET /labs). Org admins act as managers everywhere. Each lab's role comes from its approval settings (`my_role`).
 */
export function MyLabsPage() {
  const labs = useLabs();
  return (
    <Stack gap="lg">
      <Title order={2}>Your labs</Title>
      {labs.isError && <ErrorNotice error={labs.error} />}
      {labs.isPending && <Loading label="Loading labs" />}
      {labs.data?.length === 0 && <Text>You belong to no lab yet: ask an organization admin to add you to one.</Text>}
      {labs.data && labs.data.length > 0 && (
        <Table.ScrollContainer minWidth={320}>
          <Table aria-label="Your labs" data-testid="my-labs-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Lab</Table.Th>
                <Table.Th>Your role</Table.Th>
                <Table.Th>Settings</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {labs.data.map((lab) => (
                <LabRow key={lab.id} lab={lab} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function LabRow({ lab }: { lab: Lab }) {
  const settings = useApprovalSettings(lab.id);
  const role = settings.data?.my_role;
  return (
    <Table.Tr>
      <Table.Td>{lab.name}</Table.Td>
      <Table.Td>{settings.isPending ? '…' : settings.isError ? 'Unknown' : role ? ROLE[role] : 'None'}</Table.Td>
      <Table.Td>
        {role === 'manager' ? (
          <Anchor component={Link} to={`/labs/${lab.id}/settings`} aria-label={`Settings of ${lab.name}`}>
            Settings
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            Managers only
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
