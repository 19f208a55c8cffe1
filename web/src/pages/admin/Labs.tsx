import type { components } from '@labstock/client';
import { Button, Group, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Fields';
import { fieldError } from '../../components/Profile';
import { AdminOnly } from './AdminOnly';
import { LabMembers } from './LabMembers';

type Lab = components['schemas']['OrganizationLab'];
const PER_PAGE = 25;

/** /app/admin/labs: the organization's labs, archived ones too: create, rename, archive or restore, members. */
export function LabsPage() {
  return (
    <AdminOnly>
      <Labs />
    </AdminOnly>
  );
}

function Labs() {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const labs = useQuery({
    queryKey: ['organization-labs', page],
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const call = api.GET('/organization/labs', { params: { query: { page, per_page: PER_PAGE } } });
      const rows = await unwrap(call);
      return { rows, total: Number((await call).response.headers.get('x-total-count') ?? rows.length) };
    },
  });
  return (
    <Stack gap="lg">
      <Title order={2}>Labs</Title>
      <CreateLab />
      <Stack gap="xs">
        {labs.isError && <ErrorNotice error={labs.error} />}
        {labs.isPending && <Loading label="Loading labs" />}
        {labs.data && labs.data.rows.length === 0 && <Text c="dimmed">No labs yet.</Text>}
        {labs.data && labs.data.rows.length > 0 && (
          <Table.ScrollContainer minWidth={640}>
            <Table aria-label="Labs" data-testid="labs-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Inventory</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {labs.data.rows.map((lab) => (
                  <LabRow key={lab.id} lab={lab} open={open === lab.id} onToggle={() => setOpen(open === lab.id ? null : lab.id)} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {labs.data && labs.data.total > PER_PAGE && (
          <Pagination
            total={Math.ceil(labs.data.total / PER_PAGE)}
            value={page}
            onChange={setPage}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          />
        )}
      </Stack>
    </Stack>
  );
}

function CreateLab() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const create = useMutation({
    // New labs use instances (docs/product.md §5); legacy labs come only from before the migration.
    mutationFn: () => unwrap(api.POST('/organization/labs', { body: { name: name.trim(), uses_instances: true } })),
    onSuccess: () => {
      setName('');
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['organization-labs'] }),
        queryClient.invalidateQueries({ queryKey: ['labs'] }),
      ]);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Create a lab">
      <Group align="start">
        <TextInput
          label="New lab's name"
          required
          maxLength={200}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={fieldError(create.error, 'name')}
          w={300}
        />
        <Button type="submit" mt={25} loading={create.isPending} disabled={!name.trim()}>
          Create lab
        </Button>
      </Group>
      {create.isError && !fieldError(create.error, 'name') && <ErrorNotice error={create.error} title="No lab created" />}
    </form>
  );
}

function LabRow({ lab, open, onToggle }: { lab: Lab; open: boolean; onToggle: () => void }) {
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState<string | null>(null);
  const update = useMutation({
    mutationFn: (body: { name?: string; archived?: boolean }) =>
      unwrap(api.PUT('/organization/labs/{id}', { params: { path: { id: lab.id } }, body })),
    onSuccess: () => {
      setRenaming(null);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['organization-labs'] }),
        queryClient.invalidateQueries({ queryKey: ['labs'] }),
      ]);
    },
  });
  const archived = lab.archived_at !== null;
  const rename = (event: FormEvent) => {
    event.preventDefault();
    if (renaming?.trim()) update.mutate({ name: renaming.trim() });
  };
  return (
    <>
      <Table.Tr>
        <Table.Td>
          {renaming === null ? (
            lab.name
          ) : (
            <form onSubmit={rename}>
              <Group gap="xs" wrap="nowrap">
                <TextInput
                  aria-label={`New name of ${lab.name}`}
                  size="xs"
                  maxLength={200}
                  value={renaming}
                  onChange={(e) => setRenaming(e.currentTarget.value)}
                  error={fieldError(update.error, 'name')}
                />
                <Button type="submit" size="compact-xs" loading={update.isPending}>
                  Save
                </Button>
                <Button size="compact-xs" variant="default" onClick={() => setRenaming(null)}>
                  Cancel
                </Button>
              </Group>
            </form>
          )}
        </Table.Td>
        <Table.Td>{lab.uses_instances ? 'Each container tracked' : 'Not migrated yet'}</Table.Td>
        <Table.Td>
          <Text size="sm" fw={archived ? 700 : 400}>
            {archived ? 'Archived' : 'Active'}
          </Text>
        </Table.Td>
        <Table.Td>
          <Group gap="xs" wrap="nowrap">
            <Button size="compact-xs" variant="default" onClick={() => setRenaming(lab.name)} aria-label={`Rename ${lab.name}`}>
              Rename
            </Button>
            <Button
              size="compact-xs"
              variant="light"
              color={archived ? 'green' : 'red'}
              loading={update.isPending && update.variables?.archived !== undefined}
              onClick={() => update.mutate({ archived: !archived })}
              aria-label={`${archived ? 'Restore' : 'Archive'} ${lab.name}`}
            >
              {archived ? 'Restore' : 'Archive'}
            </Button>
            <Button size="compact-xs" variant="default" onClick={onToggle} aria-expanded={open} aria-label={`Members of ${lab.name}`}>
              Members
            </Button>
            {/* Roles, approval rule, spend codes and budgets: web/src/pages/LabSettings.tsx. */}
            <Button
              component={Link}
              to={`/labs/${lab.id}/settings`}
              size="compact-xs"
              variant="default"
              aria-label={`Settings of ${lab.name}`}
            >
              Settings
            </Button>
          </Group>
        </Table.Td>
      </Table.Tr>
      {update.isError && !fieldError(update.error, 'name') && (
        <Table.Tr>
          <Table.Td colSpan={4}>
            <ErrorNotice error={update.error} title={`${lab.name} not changed`} />
          </Table.Td>
        </Table.Tr>
      )}
      {open && (
        <Table.Tr>
          <Table.Td colSpan={4}>
            <LabMembers lab={lab} />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}
