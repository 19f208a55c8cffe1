import { Alert, List, Text } from '@mantine/core';
import { ErrorNotice } from '../ErrorNotice';
import { isPlacementRefusal, type PlacementCheck, refusalSentences } from './gate';

// The findings of a placement check as the person reads them: one sentence each, with its figures ("Flammable
// liquids IB and IC in Solvent cabinet: 18 L of 20 L; this adds 4 L, 2 L over the limit"; "Hydrogen peroxide 30 %
// (oxidizers) beside Acetone (flammables): an oxidizer feeds a fire of flammables"). Orange: a warning; red: what
// the lab's settings refuse.

/** Who may change the lab's warn-or-block settings (docs/safety.md). */
export const WHO_CHANGES = "The lab's managers and organization admins can change this in the lab's safety settings.";

// Orange's and red's title colours are below 4.5:1 on their light fill (axe): the title takes the text colour.
const TITLE = { title: { color: 'var(--mantine-color-text)' } };

/** The findings' sentences, one line per sentence with how many containers said it (the stocktake's answer reuses it). */
export function Sentences({ lines }: { lines: string[] }) {
  // One line per conflicting container: four bottles of one solvent say their sentence once, with their number.
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  return (
    <List size="sm" spacing={4}>
      {[...counts].map(([line, n]) => (
        <List.Item key={line} data-testid="placement-finding">
          {n > 1 ? `${line} (${n} containers)` : line}
        </List.Item>
      ))}
    </List>
  );
}

/** The check's findings: what refuses (block mode) in red, what warns in orange, amounts not understood after. */
export function PlacementFindings({ check }: { check: PlacementCheck }) {
  const limitsBlock = check.modes.limits === 'block';
  const segregationBlock = check.modes.segregation === 'block';
  const refused = [
    ...(limitsBlock ? check.limits.map((f) => f.message) : []),
    ...(segregationBlock ? check.segregation.map((f) => f.message) : []),
  ];
  const warned = [
    ...(limitsBlock ? [] : check.limits.map((f) => f.message)),
    ...(segregationBlock ? [] : check.segregation.map((f) => f.message)),
  ];
  return (
    <>
      {refused.length > 0 && (
        <Alert color="red" title="The lab's safety settings refuse this" styles={TITLE} data-testid="placement-refused">
          <Sentences lines={refused} />
          <Text size="sm" mt="xs">
            {WHO_CHANGES}
          </Text>
        </Alert>
      )}
      {warned.length > 0 && (
        <Alert color="orange" title={refused.length > 0 ? 'Also' : 'Before you go ahead'} styles={TITLE} data-testid="placement-warning">
          <Sentences lines={warned} />
        </Alert>
      )}
      {check.unknown_amounts.length > 0 && (
        <Text size="sm" c="dimmed">
          Not counted against the limits, its amount not known from its unit size:{' '}
          {check.unknown_amounts.map((u) => u.item_name).join(', ')}.
        </Text>
      )}
    </>
  );
}

/**
 * A failed action: a refusal by the lab's safety settings as its sentences and who can change the settings, any
 * other error as ErrorNotice shows it. Never a code on screen.
 */
export function PlacementErrorNotice({ error, title }: { error: unknown; title: string }) {
  if (!isPlacementRefusal(error)) return <ErrorNotice error={error} title={title} />;
  return (
    <Alert color="red" title={`${title}: the lab's safety settings refuse it`} role="alert" styles={TITLE} data-testid="placement-refusal">
      <Sentences lines={refusalSentences(error)} />
      <Text size="sm" mt="xs">
        Nothing was changed. {WHO_CHANGES}
      </Text>
    </Alert>
  );
}
