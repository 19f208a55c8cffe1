import type { components } from '@labstock/client';
import { Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { fieldError } from '../../components/Profile';
import { type Column, DataTable } from '../../data/DataTable';
import { usePage } from '../../data/hooks';
import { invalidate } from '../../data/keys';
import { useTableState } from '../../data/table-state';
import { idempotent, useSubmission } from '../../forms/submission';
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

const refreshLabs = (queryClient: ReturnType<typeof useQueryClient>) => invalidate(queryClient, '/organization/labs', '/labs');

function Labs() {
  const table = useTableState({ perPage: PER_PAGE });
  const [open, setOpen] = useState<Lab | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const labs = usePage('/organization/labs', { query: { page: table.page, per_page: PER_PAGE } });
  const columns: Column<Lab>[] = [
    {
      key: 'name',
      header: 'Name',
      phone: 'title',
      cell: (lab) => (renaming === lab.id ? <RenameLab lab={lab} onDone={() => setRenaming(null)} /> : <Text fw={500}>{lab.name}</Text>),
    },
    { key: 'inventory', header: 'Inventory', cell: (lab) => (lab.uses_instances ? 'Each container tracked' : 'Not migrated yet') },
    {
      key: 'status',
      header: 'Status',
      cell: (lab) => (
        <Text size="sm" fw={lab.archived_at !== null ? 700 : 400}>
          {lab.archived_at !== null ? 'Archived' : 'Active'}
        </Text>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      bare: true,
      cell: (lab) => (
        <LabActions
          lab={lab}
          open={open?.id === lab.id}
          onRename={() => setRenaming(lab.id)}
          onToggle={() => setOpen(open?.id === lab.id ? null : lab)}
        />
      ),
    },
  ];
  return (
    <Stack gap="lg">
      <Title order={2}>Labs</Title>
      <CreateLab />
      <DataTable
        label="Labs"
        testId="labs-table"
        query={labs}
        columns={columns}
        rowKey={(lab) => lab.id}
        page={table.page}
        perPage={PER_PAGE}
        onPage={table.setPage}
        noun={['lab', 'labs']}
        empty="No labs yet."
        loadingLabel="Loading labs"
      />
      {open && <LabMembers lab={labs.data?.rows.find((l) => l.id === open.id) ?? open} />}
    </Stack>
  );
}

function CreateLab() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const create = useSubmission({
    name: 'create-lab',
    renewOnSuccess: true,
    // New labs use instances (docs/product.md §5); legacy labs come only from before the migration.
    send: (labName: string, key) =>
      unwrap(api.POST('/organization/labs', { body: { name: labName, uses_instances: true }, headers: idempotent(key) })),
    onSuccess: () => {
      setName('');
      return refreshLabs(queryClient);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.submit(name.trim());
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
          maw="100%"
        />
        <Button type="submit" mt={25} loading={create.isPending} disabled={!name.trim()}>
          Create lab
        </Button>
      </Group>
      {create.isError && !fieldError(create.error, 'name') && <ErrorNotice error={create.error} title="No lab created" />}
    </form>
  );
}

function useLabUpdate(name: 'rename' | 'archive', lab: Lab, onSuccess?: () => void) {
  const queryClient = useQueryClient();
  return useSubmission({
    name: `${name}-lab-${lab.id}`,
    renewOnSuccess: true,
    send: (body: { name?: string; archived?: boolean }, key) =>
      unwrap(api.PUT('/organization/labs/{id}', { params: { path: { id: lab.id } }, body, headers: idempotent(key) })),
    onSuccess: () => {
      onSuccess?.();
      return refreshLabs(queryClient);
    },
  });
}

function RenameLab({ lab, onDone }: { lab: Lab; onDone: () => void }) {
  const [value, setValue] = useState(lab.name);
  const update = useLabUpdate('rename', lab, onDone);
  const rename = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) update.submit({ name: value.trim() });
  };
  return (
    <form onSubmit={rename}>
      <Group gap="xs" wrap="nowrap">
        <TextInput
          aria-label={`New name of ${lab.name}`}
          size="xs"
          maxLength={200}
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          error={fieldError(update.error, 'name')}
        />
        <Button type="submit" size="compact-xs" loading={update.isPending}>
          Save
        </Button>
        <Button size="compact-xs" variant="default" onClick={onDone}>
          Cancel
        </Button>
      </Group>
      {update.isError && !fieldError(update.error, 'name') && <ErrorNotice error={update.error} title={`${lab.name} not renamed`} />}
    </form>
  );
}

function LabActions({ lab, open, onRename, onToggle }: { lab: Lab; open: boolean; onRename: () => void; onToggle: () => void }) {
  const update = useLabUpdate('archive', lab);
  const archived = lab.archived_at !== null;
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Button size="compact-xs" variant="default" onClick={onRename} aria-label={`Rename ${lab.name}`}>
          Rename
        </Button>
        <Button
          size="compact-xs"
          variant="light"
          color={archived ? 'green' : 'red'}
          loading={update.isPending}
          onClick={() => update.submit({ archived: !archived })}
          aria-label={`${archived ? 'Restore' : 'Archive'} ${lab.name}`}
        >
          {archived ? 'Restore' : 'Archive'}
        </Button>
        <Button size="compact-xs" variant="default" onClick={onToggle} aria-expanded={open} aria-label={`Members of ${lab.name}`}>
          Members
        </Button>
        {/* Roles, approval rule, spend codes and budgets: web/src/pages/LabSettings.tsx. */}
        <Button component={Link} to={`/labs/${lab.id}/settings`} size="compact-xs" variant="default" aria-label={`Settings of ${lab.name}`}>
          Settings
        </Button>
      </Group>
      {update.isError && <ErrorNotice error={update.error} title={`${lab.name} not changed`} />}
    </Stack>
  );
}
