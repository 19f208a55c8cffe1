import { Button, Group, List, Modal, Radio, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api';
import type { StocktakeWithLines } from '../../data/stocktake';
import { idempotent, useSubmission } from '../../forms/submission';
import { ErrorNotice } from '../ErrorNotice';
import { refreshInventory, refreshStocktake } from './refresh';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What applying will change, from the lines as they are on screen (the server applies the same rules). */
export function changesOf(view: StocktakeWithLines) {
  const counted = view.lines.filter((l) => l.counted);
  return {
    quantities: counted.filter((l) => l.counted_quantity !== null && Number(l.counted_quantity) !== Number(l.recorded_quantity)).length,
    moves: counted.filter((l) => l.state === 'unexpected').length,
    missing: view.lines.filter((l) => l.state === 'missing').length,
  };
}

/**
 * Apply, with a confirmation that says what will change. One Idempotency-Key for the dialog: a double-click or a
 * retry applies once (the server also refuses an applied count).
 */
export function ApplyDialog(props: {
  view: StocktakeWithLines;
  opened: boolean;
  onClose: () => void;
  /** The apply's answer: its placement findings are said once, on the page (CountFindings). */
  onApplied?: (applied: StocktakeWithLines) => void;
}) {
  const { view, opened, onClose } = props;
  const queryClient = useQueryClient();
  const [missing, setMissing] = useState<'leave' | 'set_to_zero'>('leave');
  const c = changesOf(view);
  // A count of a lab without instances counts items, each its own container (docs/stocktake.md).
  const [one, many] = view.covers === 'lab' ? ['item', 'items'] : ['container', 'containers'];
  const apply = useSubmission({
    name: `apply-${view.id}`,
    send: (_, key) =>
      unwrap(api.POST('/stocktakes/{id}/apply', { params: { path: { id: view.id } }, body: { missing }, headers: idempotent(key) })),
    onSuccess: async (applied) => {
      props.onApplied?.(applied);
      await Promise.all([refreshStocktake(queryClient, view.id), refreshInventory(queryClient)]);
      onClose();
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Apply this count?" closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack>
        <Text size="sm">
          Applying changes the inventory at once, and each change goes into the item's history as coming from this count.
        </Text>
        <List size="sm" data-testid="apply-changes">
          <List.Item>
            {c.quantities === 0
              ? 'No quantity changes.'
              : `${plural(c.quantities, 'quantity changes', 'quantities change')} to what was counted.`}
          </List.Item>
          <List.Item>
            {c.moves === 0 ? 'Nothing moves.' : `${plural(c.moves, `${one} moves`, `${many} move`)} to where it was found.`}
          </List.Item>
          <List.Item>
            {c.missing === 0 ? `Every ${one} was counted.` : `${plural(c.missing, `${one} was`, `${many} were`)} not counted.`}
          </List.Item>
        </List>
        {c.missing > 0 && (
          <Radio.Group label={`The ${many} not counted`} value={missing} onChange={(v) => setMissing(v as typeof missing)}>
            <Stack gap={6} mt={6}>
              <Radio value="leave" label="Leave them as recorded (they are listed in the report)" />
              <Radio value="set_to_zero" label="Set their quantity to zero" />
            </Stack>
          </Radio.Group>
        )}
        {apply.isError && <ErrorNotice error={apply.error} title="Not applied" />}
        <Group justify="end">
          <Button variant="default" onClick={onClose}>
            Not yet
          </Button>
          <Button onClick={() => apply.submit()} loading={apply.isPending} disabled={apply.isPending}>
            Apply count
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
