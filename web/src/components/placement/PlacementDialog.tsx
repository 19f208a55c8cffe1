import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { ErrorNotice } from '../ErrorNotice';
import { PlacementFindings } from './Findings';
import type { PlacementGate } from './gate';

/**
 * The dialog a placement gate opens when the check found something: the findings with their figures, then "Go ahead
 * anyway" (warn mode: the action runs once) or, when the lab's settings refuse it, only Close.
 */
export function PlacementDialog({ gate, action }: { gate: PlacementGate; action: string }) {
  const { shown } = gate;
  const blocked = shown?.check?.blocked ?? false;
  return (
    <Modal
      opened={shown !== null}
      onClose={gate.cancel}
      title={blocked ? `${action}: refused by the lab's safety settings` : `${action}: check before you go ahead`}
      closeButtonProps={{ 'aria-label': 'Close' }}
      size="lg"
    >
      {shown && (
        <Stack gap="sm" data-testid="placement-dialog">
          {shown.check && <PlacementFindings check={shown.check} />}
          {shown.error !== undefined && <ErrorNotice error={shown.error} title="The safety check could not be read" />}
          {!blocked && (
            <Text size="sm">
              {shown.check
                ? "The lab's settings let this go ahead: do so only if the storage plan and the fire official's limits allow it."
                : "You may go ahead: it is checked again as it is saved, and refused if the lab's settings do not allow it."}
            </Text>
          )}
          <Group>
            {!blocked && (
              <Button color="orange" onClick={gate.confirm} data-autofocus>
                Go ahead anyway
              </Button>
            )}
            <Button variant="default" onClick={gate.cancel}>
              {blocked ? 'Close' : 'Cancel'}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
