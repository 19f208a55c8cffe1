import type { components } from '@labstock/client';
import { Alert, Button, Group, List, Stack, Text, Title } from '@mantine/core';
import type { RefObject } from 'react';
import { LabstockError } from '../../api';
import { ErrorNotice } from '../ErrorNotice';
import { WHO_CHANGES } from '../placement/Findings';
import { columnLabel } from './csv-columns';

// What a CSV import answers, in words (web/src/pages/InventoryImport.tsx, docs/csv.md): each problem by its line,
// and the refusals a person can do something about.

type Lab = components['schemas']['Lab'];
export type Problem = components['schemas']['InventoryImportError'];

export const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/**
 * A real import refused for its rows: 422 with import_errors (the lab changed after the check, say), or 409 when the
 * lab's safety settings refuse where the rows put their containers (`bySafety`, docs/safety.md "Inventory import").
 */
export class ImportRefused extends Error {
  constructor(
    readonly problems: Problem[],
    readonly total: number,
    readonly bySafety = false,
  ) {
    super('The file has problems');
  }
}

/**
 * What a warn-mode import's placement checks found (`placement_warnings`): each row whose container went beside an
 * incompatible one or counts towards a limit it went over, by its line, in the server's words. Everything was imported.
 */
export function PlacementWarnings({ warnings }: { warnings: Problem[] }) {
  // A row beside four bottles of one solvent is told once.
  const said = [...new Map(warnings.map((w) => [`${w.line}\n${w.message}`, w])).entries()];
  if (said.length === 0) return null;
  const rows = new Set(warnings.map((w) => w.line)).size;
  return (
    <Alert
      color="orange"
      title={`Imported, but ${count(rows, 'row')} put ${rows === 1 ? 'its container' : 'their containers'} where the lab's safety settings warn`}
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
      data-testid="import-placement-warnings"
    >
      <Stack gap="xs">
        <List spacing={4} size="sm" aria-label="Safety warnings by line">
          {said.map(([key, w]) => (
            <List.Item key={key} data-testid="import-placement-warning" style={{ overflowWrap: 'anywhere' }}>
              <Text span fw={700} size="sm">
                Line {w.line}:
              </Text>{' '}
              {w.message}
            </List.Item>
          ))}
        </List>
        <Text size="sm">Move the containers apart, or check the control area's limits, from each location's page.</Text>
      </Stack>
    </Alert>
  );
}

/** Every problem in words: the line, the column as the page names it, and what is wrong. */
export function Problems({ problems }: { problems: Problem[] }) {
  // A row refused beside four bottles of one solvent is told once (the placement checks name each container).
  const said = [...new Map(problems.map((p) => [`${p.line}\n${p.column}\n${p.code}\n${p.message}`, p])).entries()];
  return (
    <List spacing={4} size="sm" aria-label="Problems in the file">
      {said.map(([key, p]) => (
        <List.Item key={key} data-testid="import-problem" style={{ overflowWrap: 'anywhere' }}>
          <Text span fw={700} size="sm">
            Line {p.line}
            {p.column && !HEADER_CODES.has(p.code) ? `, ${columnLabel(p.column)}` : ''}:
          </Text>{' '}
          {reason(p)}
        </List.Item>
      ))}
    </List>
  );
}

const HEADER_CODES = new Set(['unknown_column', 'duplicate_column', 'missing_column', 'missing_header']);

/** The cell's value, which the server's message starts with (`"two" is not …`), and what is wrong with it. */
function typed(p: Problem, what: string): string {
  const value = /^"(.*)" is not/.exec(p.message)?.[1];
  return value === undefined ? p.message : `“${value}” ${what}`;
}

/** The server's reason (docs/csv.md, Row error codes), reworded where it names the file's machinery. */
function reason(p: Problem): string {
  switch (p.code) {
    case 'unknown_column':
      return `“${p.column}” is not a column Labstock knows (the columns are listed below); check its spelling.`;
    case 'duplicate_column':
      return `“${p.column}” is the same column as another one in the header.`;
    case 'missing_column':
      return 'the file has no name column, and every item needs a name.';
    case 'missing_header':
      return 'the file is empty: its first line must name the columns.';
    case 'required':
      return p.column === 'name' ? 'the name is missing.' : p.message;
    case 'column_count':
      return `this row does not have as many values as the header has columns (${p.message}); a value that contains a comma needs quotes around it.`;
    case 'invalid_decimal':
      return typed(p, 'is not a number: write it in digits, with a point for decimals, like 12.5.');
    case 'invalid_date':
      return typed(p, 'is not a date written year-month-day, like 2027-03-31.');
    case 'malformed_csv':
      return `the file is not valid CSV from here on (${p.message}).`;
    default:
      return p.message;
  }
}

/** A refused check or import: another import running (409), the server busy (503), the rows, or anything else. */
export function Refusal(props: {
  error: Error;
  lab: Lab;
  what: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onRetry: () => void;
}) {
  const { error } = props;
  if (error instanceof ImportRefused && error.bySafety) {
    // One problem per container a row went beside: the rows are its distinct lines.
    const rows = new Set(error.problems.map((p) => p.line)).size;
    return (
      <Stack gap="xs" data-testid="import-problems">
        <Title order={3} ref={props.headingRef} tabIndex={-1} c="red.8">
          {count(rows, 'row')} refused by the lab's safety settings: nothing was imported
        </Title>
        <Text size="sm">
          {rows === 1
            ? "This row puts its container beside incompatible ones, or over a control area's limit. Give it another location in the file and choose it again."
            : "These rows put their containers beside incompatible ones, or over a control area's limit. Give them another location in the file and choose it again."}{' '}
          {WHO_CHANGES}
        </Text>
        <Problems problems={error.problems} />
      </Stack>
    );
  }
  if (error instanceof ImportRefused) {
    return (
      <Stack gap="xs" data-testid="import-problems">
        <Title order={3} ref={props.headingRef} tabIndex={-1} c="red.8">
          {count(error.total, 'problem')}: nothing was imported
        </Title>
        <Text size="sm">The lab changed since the file was checked (a type renamed, say). Fix the file and choose it again.</Text>
        <Problems problems={error.problems} />
      </Stack>
    );
  }
  const busy = error instanceof LabstockError && (error.code === 'import_in_progress' || error.status === 503);
  if (busy) {
    const wait = error.retryAfter ? `in about ${count(error.retryAfter, 'second')}` : 'in a moment';
    return (
      <Alert color="yellow" role="alert" data-testid="import-busy">
        <Stack gap="xs">
          <Title order={3} size="h4" ref={props.headingRef} tabIndex={-1}>
            Not {props.what} yet: nothing has changed
          </Title>
          <Text size="sm">
            {error.code === 'import_in_progress'
              ? `Another import into ${props.lab.name} is running (from another tab, or a colleague's). Try again ${wait}, when it has finished.`
              : `The server is busy with other imports. Try again ${wait}.`}
          </Text>
          <Group>
            <Button onClick={props.onRetry}>Try again</Button>
          </Group>
        </Stack>
      </Alert>
    );
  }
  return (
    <Stack gap="xs">
      <Title order={3} size="h4" ref={props.headingRef} tabIndex={-1}>
        Not {props.what}
      </Title>
      <ErrorNotice error={error} title={`The file was not ${props.what}`} />
      <Group>
        <Button variant="default" onClick={props.onRetry}>
          Try again
        </Button>
      </Group>
    </Stack>
  );
}
