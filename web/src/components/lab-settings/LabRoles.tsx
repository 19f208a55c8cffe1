import type { components } from '@labstock/client';
import { Button, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api';
import { useLabMembers } from '../../data/hooks';
import { invalidate } from '../../data/keys';
import { PersonPicker } from '../../data/Pickers';
import { idempotent, useSubmission } from '../../forms/submission';
import { useSession } from '../../session';
import { ErrorNotice } from '../ErrorNotice';
import { Loading } from '../Fields';

type Role = components['schemas']['LabMember']['role'];

export const ROLES: { value: Role; label: string }[] = [
  { value: 'member', label: 'Member' },
  { value: 'approver', label: 'Approver' },
  { value: 'manager', label: 'Manager' },
];

/**
 * The lab's members and their lab roles (docs/ordering.md, Lab roles): approvers and managers approve order requests,
 * managers also run this page. A manager changes roles and removes people; adding someone needs the organization's
 * list of people, which only org admins may read (GET /organization/users), so only they are offered "Add".
 */
export function LabRoles({ labId, labName }: { labId: string; labName: string }) {
  const queryClient = useQueryClient();
  const { organization } = useSession();
  const members = useLabMembers(labId);
  // Changing one's own role changes what the page offers (my_role), so the lab's settings are read again too.
  const refresh = () =>
    invalidate(queryClient, ['/organization/labs/{id}/members', { id: labId }], ['/labs/{id}/approval-settings', { id: labId }]);
  const setRole = useSubmission({
    name: `set-role-${labId}`,
    renewOnSuccess: true,
    send: ({ userId, role }: { userId: string; role: Role }, key) =>
      unwrap(
        api.PUT('/organization/labs/{id}/members/{userId}', {
          params: { path: { id: labId, userId } },
          body: { role },
          headers: idempotent(key),
        }),
      ),
    onSuccess: refresh,
  });
  const remove = useSubmission({
    name: `remove-member-${labId}`,
    send: (userId: string) => unwrap(api.DELETE('/organization/labs/{id}/members/{userId}', { params: { path: { id: labId, userId } } })),
    onSuccess: refresh,
  });
  return (
    <Stack gap="xs" data-testid="lab-roles">
      <Title order={3}>Members and roles</Title>
      <Text size="sm">Approvers and managers approve order requests; managers also change these settings.</Text>
      {members.isError && <ErrorNotice error={members.error} />}
      {members.isPending && <Loading label="Loading the lab's members" size="sm" />}
      {members.data && members.data.length === 0 && <Text c="dimmed">Nobody belongs to {labName} yet.</Text>}
      {members.data && members.data.length > 0 && (
        <Table.ScrollContainer minWidth={480}>
          <Table aria-label="Members and roles" data-testid="lab-roles-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Person</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.data.map((m) => {
                const name = `${m.first_name} ${m.last_name}`;
                return (
                  <Table.Tr key={m.id} data-testid={`lab-member-${m.id}`}>
                    <Table.Td>
                      <Text size="sm">{name}</Text>
                      <Text size="xs" c="dimmed">
                        {m.email}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Select
                        aria-label={`Role of ${name}`}
                        data={ROLES}
                        value={m.role}
                        allowDeselect={false}
                        disabled={setRole.isPending && setRole.variables?.userId === m.id}
                        onChange={(role) => role && role !== m.role && setRole.submit({ userId: m.id, role: role as Role })}
                        w={150}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        loading={remove.isPending && remove.variables === m.id}
                        onClick={() => remove.submit(m.id)}
                        aria-label={`Remove ${name} from ${labName}`}
                      >
                        Remove
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {setRole.isError && <ErrorNotice error={setRole.error} title="Role not changed" />}
      {remove.isError && <ErrorNotice error={remove.error} title="Not removed" />}
      {organization.role === 'admin' ? (
        <AddLabMember labId={labId} labName={labName} inLab={new Set(members.data?.map((m) => m.id))} onAdded={refresh} />
      ) : (
        <Text size="sm" c="dimmed">
          An organization admin adds people to the lab.
        </Text>
      )}
    </Stack>
  );
}

/**
 * Org admins only (it lists the organization's people): a person of the organization added to the lab with a role.
 * The picker holds every active person (all pages of GET /organization/users), searched as one types.
 */
export function AddLabMember(props: { labId: string; labName: string; inLab: Set<string>; onAdded: () => Promise<unknown> }) {
  const [userId, setUserId] = useState<string | null>(null);
  const [role, setRole] = useState<Role>('member');
  const add = useSubmission({
    name: `add-lab-member-${props.labId}`,
    renewOnSuccess: true,
    send: (id: string, key) =>
      unwrap(
        api.POST('/organization/labs/{id}/members', {
          params: { path: { id: props.labId } },
          body: { user_id: id, role },
          headers: idempotent(key),
        }),
      ),
    onSuccess: () => {
      setUserId(null);
      return props.onAdded();
    },
  });
  return (
    <Stack gap="xs">
      <Group align="end">
        <PersonPicker
          label={`Add a person to ${props.labName}`}
          exclude={props.inLab}
          value={userId}
          onChange={setUserId}
          nothingFoundMessage="Nobody else to add"
          w={300}
          maw="100%"
        />
        <Select label="As" data={ROLES} value={role} allowDeselect={false} onChange={(r) => r && setRole(r as Role)} w={140} />
        <Button disabled={!userId} loading={add.isPending} onClick={() => userId && add.submit(userId)}>
          Add to lab
        </Button>
      </Group>
      {add.isError && <ErrorNotice error={add.error} title="Not added" />}
    </Stack>
  );
}
