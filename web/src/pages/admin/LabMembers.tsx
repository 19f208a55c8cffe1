import type { components } from '@labstock/client';
import { Button, Group, List, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Fields';
import { AddLabMember } from '../../components/lab-settings/LabRoles';
import { useLabMembers } from '../../data/hooks';
import { invalidate } from '../../data/keys';
import { useSubmission } from '../../forms/submission';

type Lab = components['schemas']['OrganizationLab'];
const ROLE: Record<string, string> = { member: 'Member', approver: 'Approver', manager: 'Manager' };

/**
 * A lab's members: who sees it (docs/product.md §3; org admins see every lab anyway), with their lab role
 * (docs/ordering.md), changed on the lab's settings page (web/src/pages/LabSettings.tsx). The people to add are all
 * of the organization's active members (every page of GET /organization/users).
 */
export function LabMembers({ lab }: { lab: Lab }) {
  const queryClient = useQueryClient();
  const members = useLabMembers(lab.id);
  const refresh = () => invalidate(queryClient, ['/organization/labs/{id}/members', { id: lab.id }]);
  // A DELETE takes no key (a second finds nothing): a double-click still sends one.
  const remove = useSubmission({
    name: `remove-lab-member-${lab.id}`,
    send: (id: string) => unwrap(api.DELETE('/organization/labs/{id}/members/{userId}', { params: { path: { id: lab.id, userId: id } } })),
    onSuccess: refresh,
  });
  return (
    <Stack gap="xs" data-testid={`lab-members-${lab.id}`}>
      <Title order={4}>Members of {lab.name}</Title>
      {members.isError && <ErrorNotice error={members.error} />}
      {members.isPending && <Loading label={`Loading the members of ${lab.name}`} size="sm" />}
      {members.data && members.data.length === 0 && <Text c="dimmed">Nobody yet (org admins see every lab).</Text>}
      {members.data && members.data.length > 0 && (
        <List listStyleType="none" spacing={4}>
          {members.data.map((m) => (
            <List.Item key={m.id}>
              <Group gap="xs">
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {m.first_name} {m.last_name} · {m.email} · {ROLE[m.role] ?? m.role}
                </Text>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  loading={remove.isPending && remove.variables === m.id}
                  onClick={() => remove.submit(m.id)}
                  aria-label={`Remove ${m.first_name} ${m.last_name} from ${lab.name}`}
                >
                  Remove
                </Button>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
      <AddLabMember labId={lab.id} labName={lab.name} inLab={new Set(members.data?.map((m) => m.id))} onAdded={refresh} />
      {remove.isError && <ErrorNotice error={remove.error} title="Not removed" />}
    </Stack>
  );
}
