import { Anchor, Button, Card, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, describeError, unwrap } from '../../api';
import { invalidate, keyOf } from '../../data/keys';
import { idempotent, useSubmission } from '../../forms/submission';
import { useAttachments } from '../attachments/Attachments';
import { ErrorNotice } from '../ErrorNotice';

const dateText = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/**
 * The item's safety data sheets with their revision dates (docs/hazards.md, "Safety data sheets"): "Safety data sheet,
 * revised 12 March 2021 — older than 5 years"; and marking one of the item's or its type's documents as its sheet.
 */
export function SafetyDataSheetReview({ itemId, typeId }: { itemId: string; typeId: string | null }) {
  const sheets = useQuery({
    queryKey: keyOf('/inventory-items/{id}/safety-data-sheets', { path: { id: itemId } }),
    queryFn: () => unwrap(api.GET('/inventory-items/{id}/safety-data-sheets', { params: { path: { id: itemId } } })),
  });
  const [marking, setMarking] = useState(false);
  return (
    <Card withBorder padding="sm" component="section" aria-label="Safety data sheet review" data-testid="sds-review">
      <Stack gap={4}>
        {sheets.isError && <ErrorNotice error={sheets.error} />}
        {sheets.data?.length === 0 && <Text size="sm">No document is marked as the safety data sheet with its revision date.</Text>}
        {sheets.data?.map((s) => (
          <Text key={s.attachment_id} size="sm" c={s.overdue ? 'red.9' : undefined} fw={s.overdue ? 600 : undefined} data-testid="sds-line">
            <Anchor href={`${window.location.origin}${s.download_url}`} download={s.file_name}>
              Safety data sheet
            </Anchor>
            , revised {dateText(s.revised_on)}
            {s.owner_kind === 'type' ? ' (of its type)' : ''}
            {s.overdue ? ` — older than ${s.review_years} years: ask the supplier for the current one` : ''}
          </Text>
        ))}
        {marking ? (
          <MarkForm itemId={itemId} typeId={typeId} onDone={() => setMarking(false)} />
        ) : (
          <Group>
            <Button size="xs" variant="default" onClick={() => setMarking(true)}>
              Set the revision date of a safety data sheet
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

function MarkForm({ itemId, typeId, onDone }: { itemId: string; typeId: string | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const own = useAttachments({ kind: 'item', itemId });
  const ofType = useAttachments({ kind: 'type', typeId: typeId ?? '' }, { enabled: typeId !== null });
  const [doc, setDoc] = useState<string | null>(null);
  const [revised, setRevised] = useState('');
  const save = useSubmission({
    name: `sds-${itemId}`,
    renewOnSuccess: true,
    send: (_: null, key) =>
      unwrap(
        api.PUT('/attachments/{id}/safety-data-sheet', {
          params: { path: { id: doc! } },
          body: { revised_on: revised },
          headers: idempotent(key),
        }),
      ),
    onSuccess: async () => {
      await invalidate(queryClient, ['/inventory-items/{id}/safety-data-sheets', { id: itemId }]);
      onDone();
    },
  });
  const options = [
    ...(own.data ?? []).map((a) => ({ value: a.id, label: `${a.file_name} (this item)` })),
    ...(typeId ? (ofType.data ?? []) : []).map((a) => ({ value: a.id, label: `${a.file_name} (its type)` })),
  ];
  return (
    <form
      aria-label="Mark a safety data sheet"
      onSubmit={(e) => {
        e.preventDefault();
        if (doc && revised) save.submit(null);
      }}
    >
      <Stack gap="xs">
        <Group align="end" gap="xs" wrap="wrap">
          <Select
            label="Document"
            data={options}
            value={doc}
            onChange={setDoc}
            placeholder="Choose a document"
            w={260}
            nothingFoundMessage="No documents yet"
          />
          <TextInput label="Revised on" type="date" value={revised} onChange={(e) => setRevised(e.currentTarget.value)} w={170} />
          <Button type="submit" size="sm" loading={save.isPending} disabled={!doc || !revised}>
            Save
          </Button>
          <Button size="sm" variant="default" onClick={onDone}>
            Cancel
          </Button>
        </Group>
        {save.isError && (
          <Text c="red" size="sm" role="alert">
            {describeError(save.error)}
          </Text>
        )}
      </Stack>
    </form>
  );
}
