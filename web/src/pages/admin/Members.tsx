import type { components } from '@labstock/client';
import { Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { type Column, DataTable } from '../../data/DataTable';
import { usePage } from '../../data/hooks';
import { invalidate } from '../../data/keys';
import { useTableState } from '../../data/table-state';
import { idempotent, useSubmission } from '../../forms/submission';
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
  const table = useTableState({ perPage: PER_PAGE });
  const { user } = useSession();
  const [issued, setIssued] = useState<{ who: string; link: IssuedLink; kind: string } | null>(null);
  const members = usePage('/organization/users', { query: { page: table.page, per_page: PER_PAGE } });
  const columns: Column<Member>[] = [
    { key: 'name', header: 'Name', phone: 'title', cell: (m) => `${nameOf(m)}${m.id === user.id ? ' (you)' : ''}` },
    { key: 'email', header: 'E-mail', cell: (m) => m.email },
    { key: 'role', header: 'Role', cell: (m) => <MemberRole member={m} /> },
    { key: 'status', header: 'Status', cell: (m) => <Status member={m} /> },
    {
      key: 'actions',
      header: 'Actions',
      bare: true,
      cell: (m) => <MemberActions member={m} onIssued={(kind, link) => setIssued({ who: m.email, link, kind })} />,
    },
  ];
  return (
    <Stack gap="lg">
      <Title order={2}>Members</Title>
      <InviteForm onInvited={(who, link) => setIssued({ who, link, kind: 'Invitation' })} />
      {issued && <IssuedLinkNotice kind={issued.kind} who={issued.who} link={issued.link} />}
      <Stack gap="xs">
        <Title order={3}>People</Title>
        <DataTable
          label="Members"
          testId="members-table"
          query={members}
          columns={columns}
          rowKey={(m) => m.id}
          page={table.page}
          perPage={PER_PAGE}
          onPage={table.setPage}
          noun={['person', 'people']}
          empty="No members."
          loadingLabel="Loading members"
          minWidth={760}
        />
      </Stack>
    </Stack>
  );
}

const nameOf = (m: Member) => `${m.first_name} ${m.last_name}`.trim() || m.email;

function useMemberUpdate(name: 'role' | 'active', member: Member) {
  const queryClient = useQueryClient();
  const { user } = useSession();
  return useSubmission({
    name: `${name}-member-${member.id}`,
    renewOnSuccess: true,
    send: (body: { role?: 'admin' | 'member'; active?: boolean }, key) =>
      unwrap(api.PUT('/organization/users/{id}', { params: { path: { id: member.id } }, body, headers: idempotent(key) })),
    // An admin who demotes themselves is no longer one: the session says so after reading it again.
    onSuccess: () =>
      Promise.all([
        invalidate(queryClient, '/organization/users'),
        member.id === user.id ? queryClient.invalidateQueries({ queryKey: SESSION_KEY }) : null,
      ]),
  });
}

function MemberRole({ member }: { member: Member }) {
  const update = useMemberUpdate('role', member);
  const name = nameOf(member);
  return (
    <Stack gap={4}>
      <Select
        aria-label={`Role of ${name}`}
        data={ROLES}
        value={member.role}
        allowDeselect={false}
        disabled={update.isPending}
        onChange={(role) => role && role !== member.role && update.submit({ role: role as 'admin' | 'member' })}
        w={130}
      />
      {update.isError && <ErrorNotice error={update.error} title={`Role of ${name} not changed`} />}
    </Stack>
  );
}

/**
 * Deactivate or reactivate (never oneself: an admin who locks themselves out needs another admin), a new invitation
 * while the person has not joined yet (an active person has nothing to accept), and a password reset link.
 */
function MemberActions({ member, onIssued }: { member: Member; onIssued: (kind: string, link: IssuedLink) => void }) {
  const { user } = useSession();
  const update = useMemberUpdate('active', member);
  const invite = useSubmission<IssuedLink>({
    name: `reinvite-${member.id}`,
    send: (_, key) =>
      unwrap(api.POST('/organization/users/{id}/invitation', { params: { path: { id: member.id } }, headers: idempotent(key) })),
    renewOnSuccess: true,
    onSuccess: (link) => onIssued('New invitation', link),
  });
  const reset = useSubmission<IssuedLink>({
    name: `reset-link-${member.id}`,
    send: (_, key) =>
      unwrap(api.POST('/organization/users/{id}/password-reset', { params: { path: { id: member.id } }, headers: idempotent(key) })),
    renewOnSuccess: true,
    onSuccess: (link) => onIssued('Password reset', link),
  });
  const name = nameOf(member);
  const active = member.deactivated_at === null;
  const waitingToJoin = active && member.invitation_expires_at !== null;
  const failed = update.error ?? invite.error ?? reset.error;
  return (
    <Stack gap={4}>
      <Group gap="xs">
        {member.id !== user.id && (
          <Button
            size="compact-xs"
            variant="light"
            color={active ? 'red' : 'green'}
            loading={update.isPending}
            onClick={() => update.submit({ active: !active })}
            aria-label={`${active ? 'Deactivate' : 'Reactivate'} ${name}`}
          >
            {active ? 'Deactivate' : 'Reactivate'}
          </Button>
        )}
        {waitingToJoin && (
          <Button
            size="compact-xs"
            variant="default"
            loading={invite.isPending}
            onClick={() => invite.submit()}
            aria-label={`New invitation link for ${name}`}
          >
            Resend invitation
          </Button>
        )}
        {
          <Button
            size="compact-xs"
            variant="default"
            loading={reset.isPending}
            onClick={() => reset.submit()}
            aria-label={`Password reset link for ${name}`}
          >
            Reset link
          </Button>
        }
      </Group>
      {failed && <ErrorNotice error={failed} title={`Not done for ${name}`} />}
    </Stack>
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
