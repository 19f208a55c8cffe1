import { Button, Group, Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api, unwrap } from '../../api';
import { useAll } from '../../data/hooks';
import { DecimalInput } from '../../forms/DecimalInput';
import { parseDecimal } from '../../forms/decimal';
import { idempotent } from '../../forms/submission';
import { ErrorNotice } from '../ErrorNotice';
import { useLedgerForm } from './ledger-submission';
import { whatHappened } from './sentences';

const CHANGE_RULES = { allowNegative: true } as const;

/** A correction: a new entry naming the one it corrects (which stays), with what changes and why. */
export function CorrectionForm({ itemId, onDone }: { itemId: string; onDone: () => void }) {
  const ledger = useAll('/controlled-items/{itemId}/ledger', { path: { itemId } });
  const [entryId, setEntryId] = useState<string | null>(null);
  const [change, setChange] = useState('');
  const [note, setNote] = useState('');
  const parsed = parseDecimal(change, CHANGE_RULES);
  const {
    submission: save,
    submit,
    tried,
  } = useLedgerForm({
    name: 'correct-controlled',
    send: (key) =>
      unwrap(
        api.POST('/controlled-items/{itemId}/corrections', {
          params: { path: { itemId } },
          headers: idempotent(key),
          body: { corrects_entry_id: entryId!, change: parsed.value!, note: note.trim() },
        }),
      ),
    ready: () => entryId !== null && !parsed.error && note.trim() !== '',
    onDone,
  });
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
