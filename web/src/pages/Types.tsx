import type { components } from '@labstock/client';
import { Button, Card, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, unwrap } from '../api';
import { AttachmentsPanel } from '../components/attachments/Attachments';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import { TypeHazards } from '../components/hazards/TypeHazards';
import { useApprovalSettings, useLabs, usePage } from '../data/hooks';
import { invalidate } from '../data/keys';
import { idempotent, useSubmission } from '../forms/submission';

type Usage = components['schemas']['TypeUsage'];
const PER_PAGE = 50;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
/** "2 items and 1 order request", for a sentence. */
const usedBy = (t: Usage) =>
  [
    t.items > 0 ? plural(t.items, 'item', 'items') : null,
    t.order_requests > 0 ? plural(t.order_requests, 'order request', 'order requests') : null,
  ]
    .filter(Boolean)
    .join(' and ');

/**
 * A lab's item types (docs/web.md, Types): each with what uses it; create, rename, and delete one nothing uses. Every
 * member reads them; only the lab's managers and org admins change them (docs/api.md), so only they get the buttons
 * (the lab's approval settings say the person's role, `my_role`) and everyone else is told who can.
 */
export function TypesPage() {
  const [params, setParams] = useSearchParams();
  const labId = params.get('lab') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const labs = useLabs();
  const firstLab = labs.data?.[0]?.id;
  useEffect(() => {
    if (!labId && firstLab) setParams({ lab: firstLab }, { replace: true });
  });
  const lab = labs.data?.find((l) => l.id === labId);
  return (
    <Stack>
      <Title order={2}>Types</Title>
      {labs.isError && <ErrorNotice error={labs.error} />}
      <Select
        label="Lab"
        data={(labs.data ?? []).map((l) => ({ value: l.id, label: l.name }))}
        value={labId || null}
        onChange={(value) => value && setParams({ lab: value })}
        allowDeselect={false}
        w={260}
      />
      {labs.isPending && <Loading label="Loading labs" />}
      {labs.data?.length === 0 && <Text>You belong to no lab yet: ask an organization admin to add you to one.</Text>}
      {labs.data && labId !== '' && !lab && <Text>This lab does not exist, or it is not yours to see.</Text>}
      {lab && <LabTypes key={lab.id} labId={lab.id} page={page} onPage={(p) => setParams({ lab: lab.id, page: String(p) })} />}
    </Stack>
  );
}

function LabTypes({ labId, page, onPage }: { labId: string; page: number; onPage: (page: number) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const usage = usePage('/labs/{id}/type-usage', { path: { id: labId }, query: { page, per_page: PER_PAGE } });
  const refresh = () => invalidate(queryClient, ['/labs/{id}/type-usage', { id: labId }], '/types');
  const settings = useApprovalSettings(labId);
  const manages = settings.data?.my_role === 'manager';
  const create = useSubmission({
    name: 'create-type',
    renewOnSuccess: true,
    send: (typeName: string, key) => unwrap(api.POST('/types', { body: { lab_id: labId, name: typeName }, headers: idempotent(key) })),
    onSuccess: () => {
      setName('');
      return refresh();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.submit(name.trim());
  };
  const pages = Math.max(1, Math.ceil((usage.data?.total ?? 0) / PER_PAGE));
  return (
    <Stack>
      {settings.data && !manages && (
        <Text data-testid="types-managed-by">
          The lab's managers and your organization's admins create, rename and delete its types. Ask one of them for a new type or a change.
        </Text>
      )}
      {manages && (
        <form onSubmit={submit} aria-label="New type">
          <Group align="end" gap="xs">
            <TextInput
              label="New type"
              placeholder="Antibody, Solvent…"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={200}
            />
            <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
              Create
            </Button>
          </Group>
        </form>
      )}
      {create.isError && <ErrorNotice error={create.error} title="Not created" />}
      {usage.isError && <ErrorNotice error={usage.error} />}
      {usage.isPending && <Loading label="Loading types" />}
      {usage.data?.rows.length === 0 && <Text>This lab has no types yet.</Text>}
      <Stack gap="xs" data-testid="types">
        {usage.data?.rows.map((t) => (
          <TypeCard key={`${t.id}-${t.name}`} type={t} onChanged={refresh} manages={manages} />
        ))}
      </Stack>
      {pages > 1 && (
        <Group gap="xs">
          <Button variant="default" size="xs" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Previous
          </Button>
          <Text size="sm">
            Page {page} of {pages}
          </Text>
          <Button variant="default" size="xs" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            Next
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function TypeCard({ type, onChanged, manages }: { type: Usage; onChanged: () => Promise<unknown>; manages: boolean }) {
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  const [documents, setDocuments] = useState(false);
  const [hazards, setHazards] = useState(false);
  const [name, setName] = useState(type.name);
  const rename = useSubmission({
    name: `rename-type-${type.id}`,
    // PUT takes the key too (docs/api.md): renaming it back and forth on one visit is a new intention each time.
    renewOnSuccess: true,
    send: (newName: string, key) =>
      unwrap(api.PUT('/types/{id}', { params: { path: { id: type.id } }, body: { name: newName }, headers: idempotent(key) })),
    onSuccess: onChanged,
  });
  const remove = useSubmission({
    name: `delete-type-${type.id}`,
    send: (_: null, key) => unwrap(api.DELETE('/types/{id}', { params: { path: { id: type.id } }, headers: idempotent(key) })),
    onSuccess: onChanged,
  });
  const used = usedBy(type);
  return (
    <Card withBorder padding="sm" data-testid="type-card" aria-label={`Type ${type.name}`} component="section">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={600}>{type.name}</Text>
          <Text size="sm" c="dimmed">
            {used ? `Used by ${used}` : 'Not used'}
          </Text>
        </Group>
        {mode === 'rename' && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (name.trim()) rename.submit(name.trim());
            }}
          >
            <Group align="end" gap="xs">
              <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={200} />
              <Button type="submit" size="sm" loading={rename.isPending} disabled={!name.trim() || name.trim() === type.name}>
                Save
              </Button>
              <Button size="sm" variant="default" onClick={() => setMode('view')}>
                Cancel
              </Button>
            </Group>
          </form>
        )}
        {rename.isError && <ErrorNotice error={rename.error} title="Not renamed" />}
        {mode === 'delete' &&
          (used ? (
            <Text size="sm" role="alert" data-testid="type-in-use">
              “{type.name}” cannot be deleted: {used} {type.items + type.order_requests === 1 ? 'uses' : 'use'} it. Give{' '}
              {type.items + type.order_requests === 1 ? 'it' : 'them'} another type first.
            </Text>
          ) : (
            <Group gap="xs">
              <Text size="sm">Delete “{type.name}”?</Text>
              <Button
                size="xs"
                color="red"
                loading={remove.isPending}
                onClick={() => remove.submit(null)}
                aria-label={`Confirm deleting ${type.name}`}
              >
                Delete it
              </Button>
              <Button size="xs" variant="default" onClick={() => setMode('view')}>
                Keep
              </Button>
            </Group>
          ))}
        {remove.isError && <ErrorNotice error={remove.error} title="Not deleted" />}
        {hazards && <TypeHazards typeId={type.id} typeName={type.name} manages={manages} />}
        {documents && (
          <AttachmentsPanel
            owner={{ kind: 'type', typeId: type.id }}
            title={`Documents of ${type.name}`}
            hint="The safety data sheet, shown on the page of every container of this type."
            readOnly={!manages}
          />
        )}
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            onClick={() => setDocuments(!documents)}
            aria-expanded={documents}
            aria-label={`Documents of ${type.name}`}
          >
            {documents ? 'Hide documents' : 'Documents'}
          </Button>
          <Button
            size="xs"
            variant="default"
            onClick={() => setHazards(!hazards)}
            aria-expanded={hazards}
            aria-label={`Hazards of ${type.name}`}
          >
            {hazards ? 'Hide hazards' : 'Hazards'}
          </Button>
        </Group>
        {mode === 'view' && manages && (
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={() => setMode('rename')} aria-label={`Rename ${type.name}`}>
              Rename
            </Button>
            <Button size="xs" variant="light" color="red" onClick={() => setMode('delete')} aria-label={`Delete ${type.name}`}>
              Delete
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
