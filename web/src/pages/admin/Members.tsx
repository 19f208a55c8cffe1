import type { components } from '@labstock/client';
import { Button, Group, Pagination, Select, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Fields';
import { SESSION_KEY, useSession } from '../../session';
import { AdminOnly } from './AdminOnly';
import { InviteForm, IssuedLinkNotice } from './InviteForm';

type Member = components['schemas']['OrganizationUser'];
type IssuedLink = components['schemas']['IssuedLink'];
const PER_PAGE = 25;
const ROLES = [
  { value: 'member', label: 'Member' },
  { value: 'admin', label: 'Admin' },
];

/** /app/admin/members: the organization's people, invitations, roles and deactivation (org admins). */
export function MembersPage() {
  return (
    <AdminOnly>
      <Members />
    </AdminOnly>
  );
}

function Members() {
  const [page, setPage] = useState(1);
  const [issued, setIssued] = useState<{ who: string; link: IssuedLink; kind: string } | null>(null);
  const members = useQuery({
    queryKey: ['organization-users', page],
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const call = api.GET('/organization/users', { params: { query: { page, per_page: PER_PAGE } } });
      const rows = await unwrap(call);
      return { rows, total: Number((await call).response.headers.get('x-total-count') ?? rows.length) };
    },
  });
  return (
    <Stack gap="lg">
      <Title order={2}>Members</Title>
      <InviteForm onInvited={(user) => setIssued({ who: user.email, link: user.invitation, kind: 'Invitation' })} />
      {issued && <IssuedLinkNotice kind={issued.kind} who={issued.who} link={issued.link} />}
      <Stack gap="xs">
        <Title order={3}>People</Title>
        {members.isError && <ErrorNotice error={members.error} />}
        {members.isPending && <Loading label="Loading members" />}
        {members.data && members.data.rows.length === 0 && <Text c="dimmed">No members.</Text>}
        {members.data && members.data.rows.length > 0 && (
          <Table.ScrollContainer minWidth={720}>
            <Table aria-label="Members" data-testid="members-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>E-mail</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {members.data.rows.map((m) => (
                  <MemberRow key={m.id} member={m} onIssued={(kind, link) => setIssued({ who: m.email, link, kind })} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {members.data && members.data.total > PER_PAGE && (
          <Pagination
            total={Math.ceil(members.data.total / PER_PAGE)}
            value={page}
            onChange={setPage}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          />
        )}
      </Stack>
    </Stack>
  );
}

function MemberRow({ member, onIssued }: { member: Member; onIssued: (kind: string, link: IssuedLink) => void }) {
  const queryClient = useQueryClient();
  const { user } = useSession();
  const name = `${member.first_name} ${member.last_name}`.trim() || member.email;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['organization-users'] });
  const update = useMutation({
    mutationFn: (body: { role?: 'admin' | 'member'; active?: boolean }) =>
      unwrap(api.PUT('/organization/users/{id}', { params: { path: { id: member.id } }, body })),
    // An admin who demotes or deactivates themselves is no longer one: the session says so after reading it again.
    onSuccess: () => Promise.all([refresh(), member.id === user.id ? queryClient.invalidateQueries({ queryKey: SESSION_KEY }) : null]),
  });
  const invite = useMutation({
    mutationFn: () => unwrap(api.POST('/organization/users/{id}/invitation', { params: { path: { id: member.id } } })),
    onSuccess: (link) => onIssued('New invitation', link),
  });
  const reset = useMutation({
    mutationFn: () => unwrap(api.POST('/organization/users/{id}/password-reset', { params: { path: { id: member.id } } })),
    onSuccess: (link) => onIssued('Password reset', link),
  });
  const active = member.deactivated_at === null;
  const failed = update.error ?? invite.error ?? reset.error;
  return (
    <>
      <Table.Tr>
        <Table.Td>
          {name}
          {member.id === user.id && ' (you)'}
        </Table.Td>
        <Table.Td>{member.email}</Table.Td>
        <Table.Td>
          <Select
            aria-label={`Role of ${name}`}
            data={ROLES}
            value={member.role}
            allowDeselect={false}
            disabled={update.isPending}
            onChange={(role) => role && role !== member.role && update.mutate({ role: role as 'admin' | 'member' })}
            w={130}
          />
        </Table.Td>
        <Table.Td>
          <Status member={member} />
        </Table.Td>
        <Table.Td>
          <Group gap="xs" wrap="nowrap">
            <Button
              size="compact-xs"
              variant="light"
              color={active ? 'red' : 'green'}
              loading={update.isPending && update.variables?.active !== undefined}
              onClick={() => update.mutate({ active: !active })}
              aria-label={`${active ? 'Deactivate' : 'Reactivate'} ${name}`}
            >
              {active ? 'Deactivate' : 'Reactivate'}
            </Button>
            <Button
              size="compact-xs"
              variant="default"
              loading={invite.isPending}
              onClick={() => invite.mutate()}
              aria-label={`New invitation link for ${name}`}
            >
              Resend invitation
            </Button>
            <Button
              size="compact-xs"
              variant="default"
              loading={reset.isPending}
              onClick={() => reset.mutate()}
              aria-label={`Password reset link for ${name}`}
            >
              Reset link
            </Button>
          </Group>
        </Table.Td>
      </Table.Tr>
      {failed && (
        <Table.Tr>
          <Table.Td colSpan={5}>
            <ErrorNotice error={failed} title={`Not done for ${name}`} />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

/** Active, deactivated, or invited and not joined yet (until when, or that the link has expired: resend it). */
function Status({ member }: { member: Member }) {
  if (member.deactivated_at !== null)
    return (
      <Text size="sm" fw={700}>
        Deactivated
      </Text>
    );
  if (member.invitation_expires_at === null) return <Text size="sm">Active</Text>;
  const until = new Date(member.invitation_expires_at);
  if (until.getTime() <= Date.now())
    return (
      <Text size="sm" fw={700}>
        Invitation expired
      </Text>
    );
  return <Text size="sm">Invited, until {until.toLocaleDateString()}</Text>;
}
