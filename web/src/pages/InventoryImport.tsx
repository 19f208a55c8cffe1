import type { components } from '@labstock/client';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, LabstockError } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import { CsvColumns } from '../components/lab-settings/csv-columns';
import { ExportButton } from '../components/lab-settings/InventoryFile';
import { count, ImportRefused, PlacementWarnings, Problems, Refusal } from '../components/lab-settings/import-answers';
import { useLab } from '../data/hooks';
import { idempotent, useSubmission } from '../forms/submission';
import { NotFoundPage } from './NotFound';

type Lab = components['schemas']['Lab'];
type ImportResult = components['schemas']['InventoryImportResult'];

const MAX_BYTES = 32 * 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The import's POST with the file as text/csv (docs/csv.md, Import); the typed client would send JSON otherwise. */
async function sendImport(labId: string, csv: string, dryRun: boolean, key: string): Promise<ImportResult> {
  const { data, error, response } = await api.POST('/labs/{id}/inventory/import', {
    params: { path: { id: labId }, query: { dry_run: dryRun } },
    body: csv,
    bodySerializer: (body) => body,
    headers: { 'Content-Type': 'text/csv; charset=utf-8', ...idempotent(key) },
  });
  if (data) return data;
  if (error?.import_errors)
    throw new ImportRefused(error.import_errors, error.error_count ?? error.import_errors.length, response.status === 409);
  throw new LabstockError(response, error);
}

/** The file's text, or why it cannot be read: the server takes UTF-8 only, and says so less kindly. */
async function readCsv(file: File): Promise<{ text: string } | { unreadable: string }> {
  // The server's limit (docs/csv.md, Limits), said before a large file is read into the page.
  if (file.size > MAX_BYTES) return { unreadable: 'This file is larger than 32 MiB: split it into several files and import each.' };
  let bytes: ArrayBuffer;
  try {
    bytes = await file.arrayBuffer();
  } catch {
    return { unreadable: 'The file could not be read (it may have changed since you chose it): choose it again.' };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return {
      unreadable:
        'This file is not saved as UTF-8 text. In your spreadsheet choose “Save as” and the format “CSV UTF-8 (comma delimited)”, then choose the new file.',
    };
  }
}

/**
 * /app/labs/{id}/import: a CSV file into a lab's inventory (docs/csv.md). Choosing a file checks it at once (a dry
 * run, nothing written) and lists every problem by its line; a good file is then imported with one click, all rows
 * or none, exactly once (one Idempotency-Key for the import, kept for this page's history entry). Anyone who may add
 * items to the lab may import; the server decides.
 */
export function InventoryImportPage() {
  const id = useParams().id ?? '';
  const lab = useLab(id, { enabled: UUID.test(id) });
  if (!UUID.test(id) || (lab.error instanceof LabstockError && lab.error.status === 404)) return <NotFoundPage what="lab" />;
  if (lab.isError) return <ErrorNotice error={lab.error} />;
  if (lab.isPending) return <Loading label="Loading the lab" />;
  return <Importer lab={lab.data} />;
}

function Importer({ lab }: { lab: Lab }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [unreadable, setUnreadable] = useState<string | null>(null);
  const [text, setText] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const check = useSubmission<ImportResult, string>({
    name: 'inventory-import-check',
    renewOnSuccess: true,
    send: (csv, key) => sendImport(lab.id, csv, true, key),
  });
  const run = useSubmission<ImportResult, string>({
    name: 'inventory-import',
    send: (csv, key) => sendImport(lab.id, csv, false, key),
    // Every list that may show the new items, whatever its key.
    onSuccess: () => queryClient.invalidateQueries(),
  });

  const choose = async (chosen: File | null) => {
    check.reset();
    run.reset();
    setFile(chosen);
    setText(null);
    setUnreadable(null);
    if (!chosen) return;
    const read = await readCsv(chosen);
    if ('unreadable' in read) setUnreadable(read.unreadable);
    else {
      setText(read.text);
      check.submit(read.text);
    }
  };

  // The answer is where the person looks next (and what a screen reader reads): it takes the focus, and so scrolls
  // into view on a phone.
  const answered = run.data ?? check.data ?? check.error ?? run.error;
  useEffect(() => {
    if (answered) resultHeading.current?.focus();
  }, [answered]);

  const checked = check.data && check.variables === text ? check.data : undefined;
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2}>Import into {lab.name}</Title>
        <Text size="sm">
          Add many items at once from a spreadsheet saved as CSV. Labstock first checks the whole file and lists every problem with its
          line; nothing is added until the file is right, and then all of its rows are added together.
        </Text>
      </Stack>

      {run.data ? (
        <Imported lab={lab} result={run.data} headingRef={resultHeading} onAnother={() => choose(null)} />
      ) : (
        <Stack gap="sm">
          <input
            ref={picker}
            type="file"
            accept=".csv,text/csv"
            hidden
            aria-label="CSV file"
            onChange={(e) => {
              void choose(e.currentTarget.files?.[0] ?? null);
              // The same file chosen again after fixing it is a new choice.
              e.currentTarget.value = '';
            }}
          />
          <Group>
            <Button variant={file ? 'default' : 'filled'} onClick={() => picker.current?.click()} disabled={run.isPending}>
              {file ? 'Choose another file' : 'Choose a CSV file'}
            </Button>
            {file && text !== null && !check.isPending && (
              <Button variant="default" onClick={() => void choose(file)} disabled={run.isPending}>
                Check again
              </Button>
            )}
          </Group>
          {file && (
            <Text size="sm" data-testid="chosen-file" style={{ overflowWrap: 'anywhere' }}>
              {file.name}
            </Text>
          )}
          {unreadable && (
            <Alert color="red" title="Cannot read this file" role="alert">
              {unreadable}
            </Alert>
          )}
          {check.isPending && <Loading label="Checking the file" />}
          {check.isError && (
            <Refusal error={check.error} lab={lab} what="checked" headingRef={resultHeading} onRetry={() => text && check.submit(text)} />
          )}
          {checked && !run.isError && (
            <Checked
              result={checked}
              lab={lab}
              headingRef={resultHeading}
              importing={run.isPending}
              onImport={() => text !== null && run.submit(text)}
            />
          )}
          {run.isError && (
            <Refusal error={run.error} lab={lab} what="imported" headingRef={resultHeading} onRetry={() => text && run.submit(text)} />
          )}
        </Stack>
      )}

      <Stack gap="xs">
        <Title order={3}>The columns</Title>
        <CsvColumns />
      </Stack>
      <Stack gap="xs">
        <Title order={3}>Export</Title>
        <Text size="sm">Everything {lab.name} has, in the same columns: a copy to keep, or a start for another lab's file.</Text>
        <Group>
          <ExportButton labId={lab.id} />
        </Group>
      </Stack>
    </Stack>
  );
}

function Checked(props: {
  result: ImportResult;
  lab: Lab;
  headingRef: RefObject<HTMLHeadingElement | null>;
  importing: boolean;
  onImport: () => void;
}) {
  const { result, lab } = props;
  if (result.error_count > 0) {
    return (
      <Stack gap="xs" data-testid="import-problems">
        <Title order={3} ref={props.headingRef} tabIndex={-1} c="red.8">
          {count(result.error_count, 'problem')} in the file: nothing was imported
        </Title>
        <Text size="sm">
          Fix {result.error_count === 1 ? 'it' : 'them'} in your spreadsheet, save the file as CSV again and choose it again (or “Check
          again”). The first line of the file is its header, line 1.
          {result.errors.length < result.error_count && ` The first ${count(result.errors.length, 'problem')} are listed.`}
        </Text>
        <Problems problems={result.errors} />
      </Stack>
    );
  }
  if (result.rows === 0) {
    return (
      <Stack gap="xs" data-testid="import-empty">
        <Title order={3} ref={props.headingRef} tabIndex={-1}>
          Nothing to import
        </Title>
        <Text size="sm">The file has a header line but no rows under it.</Text>
      </Stack>
    );
  }
  return (
    <Stack gap="xs" data-testid="import-ready">
      <Title order={3} ref={props.headingRef} tabIndex={-1}>
        The file is ready
      </Title>
      <Text size="sm">{summary(result, lab, 'will add')}</Text>
      <Group>
        <Button onClick={props.onImport} loading={props.importing}>
          Import {count(result.rows, 'row')}
        </Button>
      </Group>
      {props.importing && <Text size="sm">Importing… a large file takes a few seconds. Nothing is added until every row is.</Text>}
    </Stack>
  );
}

/** "3 rows will add 2 items with 3 instances to Lab A, and 1 new location." */
function summary(result: ImportResult, lab: Lab, verb: string): string {
  const instances = lab.uses_instances ? ` with ${count(result.instances, 'instance')}` : '';
  const places = result.locations_created > 0 ? `, and ${count(result.locations_created, 'new location')}` : '';
  return `${count(result.rows, 'row')} ${verb} ${count(result.items, 'item')}${instances} to ${lab.name}${places}.`;
}

const WRAPS = { root: { height: 'auto', minHeight: 36, paddingBlock: 6 }, label: { whiteSpace: 'normal' as const, lineHeight: 1.3 } };

function Imported(props: { lab: Lab; result: ImportResult; headingRef: RefObject<HTMLHeadingElement | null>; onAnother: () => void }) {
  const { lab, result } = props;
  return (
    <Stack gap="sm">
      <Alert color="green" data-testid="import-done">
        <Stack gap="xs">
          <Title order={3} size="h4" ref={props.headingRef} tabIndex={-1}>
            Imported
          </Title>
          <Text size="sm">{summary(result, lab, 'added')}</Text>
          <Group>
            {/* A long lab name wraps on a phone rather than running out of the card. */}
            <Button component={Link} to={`/inventory?lab=${lab.id}`} styles={WRAPS}>
              Open {lab.name}'s inventory
            </Button>
            <Button variant="default" onClick={props.onAnother}>
              Import another file
            </Button>
          </Group>
        </Stack>
      </Alert>
      <PlacementWarnings warnings={result.placement_warnings ?? []} />
    </Stack>
  );
}
