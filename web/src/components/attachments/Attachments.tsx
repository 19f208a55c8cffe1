import type { components } from '@labstock/client';
import { Anchor, Button, Card, FileButton, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, LabstockError, unwrap } from '../../api';
import { useAll } from '../../data/hooks';
import { type ApiPath, invalidate } from '../../data/keys';
import { idempotent, useSubmission } from '../../forms/submission';
import { ErrorNotice } from '../ErrorNotice';
import { Loading } from '../Fields';

// Documents of an item, an instance or a type (docs/attachments.md): listed with who added them, when and their
// size; downloaded as files; added, replaced and deleted exactly once (one Idempotency-Key per chosen file, the
// button busy while it goes). Who may change them the server decides (a type's: its lab's managers).

export type Attachment = components['schemas']['Attachment'];
export type Owner =
  | { kind: 'item'; itemId: string }
  | { kind: 'instance'; itemId: string; instanceId: string }
  | { kind: 'type'; typeId: string };

function listOf(owner: Owner): { path: ApiPath; params: { path: Record<string, string> } } {
  if (owner.kind === 'item') return { path: '/inventory-items/{id}/attachments', params: { path: { id: owner.itemId } } };
  if (owner.kind === 'instance')
    return {
      path: '/inventory-items/{itemId}/instances/{itemInstanceId}/attachments',
      params: { path: { itemId: owner.itemId, itemInstanceId: owner.instanceId } },
    };
  return { path: '/types/{id}/attachments', params: { path: { id: owner.typeId } } };
}

/** Every document of `owner`. */
export function useAttachments(owner: Owner, options: { enabled?: boolean } = {}) {
  const { path, params } = listOf(owner);
  return useAll(path as '/types/{id}/attachments', params as { path: { id: string } }, options);
}

/** The file goes as it is (its type is read from its content by the server); the typed client would send JSON. */
async function send(owner: Owner, file: File, key: string): Promise<Attachment> {
  const init = {
    params: { ...listOf(owner).params, query: { name: file.name } },
    body: file as unknown as string,
    bodySerializer: (body: unknown) => body,
    headers: { 'Content-Type': file.type || 'application/octet-stream', ...idempotent(key) },
  };
  if (owner.kind === 'item') return unwrap(api.POST('/inventory-items/{id}/attachments', init as never));
  if (owner.kind === 'instance') return unwrap(api.POST('/inventory-items/{itemId}/instances/{itemInstanceId}/attachments', init as never));
  return unwrap(api.POST('/types/{id}/attachments', init as never));
}

async function sendReplacement(id: string, file: File, key: string): Promise<Attachment> {
  return unwrap(
    api.PUT('/attachments/{id}/content', {
      params: { path: { id }, query: { name: file.name } },
      body: file as unknown as string,
      bodySerializer: (body: unknown) => body,
      headers: { 'Content-Type': file.type || 'application/octet-stream', ...idempotent(key) },
    } as never),
  );
}

/** What went wrong with a file, in the person's words. */
function fileProblem(err: unknown): string | null {
  if (!(err instanceof LabstockError)) return null;
  if (err.code === 'unsupported_media_type')
    return 'Only PDF files and pictures (PNG, JPEG, GIF or WebP) can be attached. This file is none of them.';
  if (err.code === 'payload_too_large')
    return 'This file is too large to attach (the limit is 25 MiB unless your administrator set another).';
  if (err.code === 'forbidden') return "Only the lab's managers and your organization's admins change a type's documents.";
  return null;
}

export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const when = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const person = (u: Attachment['created_by']) => `${u.first_name} ${u.last_name}`.trim() || u.email;

/** Download link: the browser saves the file (the server answers it as an attachment). */
export const DownloadLink = ({ a, label }: { a: Attachment; label?: string }) => (
  <Anchor href={`${window.location.origin}${a.download_url}`} download={a.file_name} data-testid="attachment-download">
    {label ?? a.file_name}
  </Anchor>
);

function Problem({ error }: { error: unknown }) {
  const words = fileProblem(error);
  return words ? (
    <Text c="red" size="sm" role="alert">
      {words}
    </Text>
  ) : (
    <ErrorNotice error={error} title="Not done" />
  );
}

function Row({ a, onChanged, readOnly }: { a: Attachment; onChanged: () => Promise<unknown>; readOnly: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const replace = useSubmission({
    name: `replace-attachment-${a.id}`,
    renewOnSuccess: true,
    send: (file: File, key) => sendReplacement(a.id, file, key),
    onSuccess: onChanged,
  });
  const remove = useSubmission({
    name: `delete-attachment-${a.id}`,
    send: (_: null, key) => unwrap(api.DELETE('/attachments/{id}', { params: { path: { id: a.id } }, headers: idempotent(key) })),
    onSuccess: onChanged,
  });
  return (
    <Card withBorder padding="xs" component="li" data-testid="attachment" aria-label={a.file_name}>
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <DownloadLink a={a} />
          <Group gap="xs" display={readOnly ? 'none' : undefined}>
            <FileButton onChange={(f) => f && replace.submit(f)} accept="application/pdf,image/*">
              {(props) => (
                <Button {...props} size="xs" variant="default" loading={replace.isPending}>
                  Replace
                </Button>
              )}
            </FileButton>
            {confirming ? (
              <>
                <Button size="xs" color="red" loading={remove.isPending} onClick={() => remove.submit(null)}>
                  Delete it
                </Button>
                <Button size="xs" variant="subtle" onClick={() => setConfirming(false)}>
                  Keep
                </Button>
              </>
            ) : (
              <Button size="xs" variant="subtle" color="red" onClick={() => setConfirming(true)}>
                Delete
              </Button>
            )}
          </Group>
        </Group>
        <Text size="xs" c="dimmed">
          {sizeText(a.size_bytes)} · added by {person(a.created_by)} on {when(a.created_at)}
          {a.version > 1 ? ` · replaced by ${person(a.updated_by)} on ${when(a.updated_at)}` : ''}
        </Text>
        {replace.isError && <Problem error={replace.error} />}
        {remove.isError && <Problem error={remove.error} />}
      </Stack>
    </Card>
  );
}

/**
 * The documents panel: a title, the list, and "Attach a file" (choose, then it uploads once). `hint` says what
 * belongs here ("a certificate of analysis for this lot").
 */
export function AttachmentsPanel(props: { owner: Owner; title: string; hint?: string; readOnly?: boolean }) {
  const { owner, title, hint, readOnly = false } = props;
  const queryClient = useQueryClient();
  const docs = useAttachments(owner);
  const refresh = () => invalidate(queryClient, listOf(owner).path);
  const upload = useSubmission({
    name: `attach-${owner.kind}`,
    renewOnSuccess: true,
    send: (file: File, key) => send(owner, file, key),
    onSuccess: refresh,
  });
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Group justify="space-between" gap="xs">
        <Title order={3}>{title}</Title>
        {!readOnly && (
          <FileButton onChange={(f) => f && upload.submit(f)} accept="application/pdf,image/*">
            {(p) => (
              <Button {...p} variant="light" loading={upload.isPending} data-testid={`attach-${owner.kind}`}>
                Attach a file
              </Button>
            )}
          </FileButton>
        )}
      </Group>
      {hint && (
        <Text size="sm" c="dimmed">
          {hint}
        </Text>
      )}
      {upload.isError && <Problem error={upload.error} />}
      {docs.isError && <ErrorNotice error={docs.error} />}
      {docs.isPending && <Loading label="Loading documents" />}
      {docs.data?.length === 0 && <Text size="sm">No documents yet.</Text>}
      {docs.data && docs.data.length > 0 && (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {(docs.data as Attachment[]).map((a) => (
            <Row key={`${a.id}-${a.version}`} a={a} onChanged={refresh} readOnly={readOnly} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
