import { Button, Group, Select, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api';
import { keyOf } from '../../data/keys';
import { DecimalInput } from '../../forms/DecimalInput';
import { parseDecimal } from '../../forms/decimal';
import { idempotent, useSubmission } from '../../forms/submission';
import { ErrorNotice } from '../ErrorNotice';
import { refreshControlled } from './refresh';
import { whatHappened } from './sentences';

const CHANGE_RULES = { allowNegative: true } as const;

/** A correction: a new entry naming the one it corrects (which stays), with what changes and why. */
export function CorrectionForm({ itemId, onDone }: { itemId: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const params = { path: { itemId }, query: { per_page: 100 } };
  const ledger = useQuery({
    queryKey: keyOf('/controlled-items/{itemId}/ledger', params),
    queryFn: () => unwrap(api.GET('/controlled-items/{itemId}/ledger', { params })),
  });
  const [entryId, setEntryId] = useState<string | null>(null);
  const [change, setChange] = useState('');
  const [note, setNote] = useState('');
  const [tried, setTried] = useState(false);
  const parsed = parseDecimal(change, CHANGE_RULES);
  const save = useSubmission({
    name: 'correct-controlled',
    send: (_, key) =>
      unwrap(
        api.POST('/controlled-items/{itemId}/corrections', {
          params: { path: { itemId } },
          headers: idempotent(key),
          body: { corrects_entry_id: entryId!, change: parsed.value!, note: note.trim() },
        }),
      ),
    onSuccess: async () => {
      await refreshControlled(queryClient);
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (entryId && !parsed.error && note.trim()) save.submit();
  };
  return (
    <form onSubmit={submit} aria-label="Correct an entry">
      <Group align="flex-start" gap="xs" wrap="wrap">
        <Select
          label="Entry to correct"
          data={(ledger.data ?? []).map((e) => ({ value: e.id, label: `Entry ${e.seq}: ${whatHappened(e)}` }))}
          value={entryId}
          onChange={setEntryId}
          error={tried && !entryId ? 'Choose the entry' : undefined}
          w={280}
        />
        <DecimalInput
          label="Change the balance by"
          placeholder="-0.5 or 0"
          rules={CHANGE_RULES}
          showError={tried}
          value={change}
          onChange={setChange}
          w={170}
        />
        <TextInput
          label="Why"
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          error={tried && !note.trim() ? 'Say what was wrong' : undefined}
          w={240}
        />
        <Button type="submit" loading={save.isPending} mt={24}>
          Add the correction
        </Button>
        <Button variant="subtle" mt={24} onClick={onDone}>
          Cancel
        </Button>
      </Group>
      {save.isError && <ErrorNotice error={save.error} title="Not corrected" />}
    </form>
  );
}
